// Expressions: arithmetic, comparison, Kleene logic, null/NaN handling, casts, when/then, names
// and errors, checked against independent references (test/expr_ref.ts) over the edge matrix.
import { describe, expect, it } from "vitest";
import { col, DataFrame, lit, when, type DType } from "../src/index.js";
import { diffValues, I64_MAX, I64_MIN, LENGTHS, NULL_PATTERNS, rawColumn, SMALL_LENGTHS, type Raw } from "./helpers.js";
import {
  big, cmpRef, FLOAT_DTYPES, floorDivBig, frameOf, INT_DTYPES, isInt, modBig, modFloat, NUMERIC_DTYPES, run,
  wrapInt, zipRef,
} from "./expr_ref.js";

function expectValues(got: unknown[], want: unknown[]): void {
  expect(diffValues(got, want)).toBeNull();
}

/** Column y: x's values from another row, so pairs mix extremes, zeros and negatives. */
function pairRaw(dt: DType, n: number, nulls: (typeof NULL_PATTERNS)[number]): [Raw[], Raw[]] {
  const x = rawColumn(dt, n, nulls);
  const y = rawColumn(dt, n + 5, "none").slice(5).map((v, i) => (i % 5 === 4 ? null : v));
  return [x, y];
}

describe("integer arithmetic wraps and floors like Polars", () => {
  for (const dt of INT_DTYPES) {
    for (const n of [0, 1, 33, 65, 100_003]) {
      for (const nulls of NULL_PATTERNS) {
        it(`${dt} n=${n} nulls=${nulls}`, () => {
          const [x, y] = pairRaw(dt, n, nulls);
          const df = frameOf({ x: [dt, x], y: [dt, y] });
          const w = (v: bigint) => wrapInt(dt, v);
          const cases: [string, ReturnType<typeof run>, (a: bigint, b: bigint) => unknown][] = [
            ["add", run(df, col("x").add(col("y"))), (a, b) => w(a + b)],
            ["sub", run(df, col("x").sub(col("y"))), (a, b) => w(a - b)],
            ["mul", run(df, col("x").mul(col("y"))), (a, b) => w(a * b)],
            ["floorDiv", run(df, col("x").floorDiv(col("y"))), (a, b) => (b === 0n ? null : w(floorDivBig(a, b)))],
            ["mod", run(df, col("x").mod(col("y"))), (a, b) => (b === 0n ? null : w(modBig(a, b)))],
          ];
          for (const [name, got, f] of cases) {
            expect(got.dtype, name).toBe(dt);
            expectValues(got.values, zipRef(x, y, (a, b) => f(big(a), big(b)) as never));
          }
          const div = run(df, col("x").div(col("y")));
          expect(div.dtype).toBe("float64");
          expectValues(div.values, zipRef(x, y, (a, b) => Number(a) / Number(b)));
          if (n > 3) {
            // Sliced input (offset not a multiple of 8).
            const s = df.slice(3, n - 4);
            expectValues(run(s, col("x").add(col("y"))).values, zipRef(x.slice(3, n - 1), y.slice(3, n - 1), (a, b) => w(big(a) + big(b))));
          }
        });
      }
    }
  }

  it("int64 extremes: overflow wraps, MIN // -1 wraps, MIN % -1 is 0, x // 0 and x % 0 are null", () => {
    const df = frameOf({ a: ["int64", [I64_MAX, I64_MIN, I64_MIN, 7n, -7n]], b: ["int64", [1n, -1n, -1n, 0n, 2n]] });
    expectValues(run(df, col("a").add(col("b"))).values, [I64_MIN, I64_MAX, I64_MAX, 7n, -5n]);
    expectValues(run(df, col("a").floorDiv(col("b"))).values, [I64_MAX, I64_MIN, I64_MIN, null, -4n]);
    expectValues(run(df, col("a").mod(col("b"))).values, [0n, 0n, 0n, null, 1n]);
    expectValues(run(df, col("a").mul(2)).values, [-2n, 0n, 0n, 14n, -14n]);
    expectValues(run(df, col("a").neg()).values, [-I64_MAX, I64_MIN, I64_MIN, -7n, 7n]);
    expectValues(run(df, col("a").abs()).values, [I64_MAX, I64_MIN, I64_MIN, 7n, 7n]);
  });

  it("pow: integers keep the base dtype (wrapping), a negative exponent is null; floats give float", () => {
    const df = frameOf({ a: ["int32", [2, -3, 7, 2, null]], e: ["int32", [10, 3, -1, 40, 2]] });
    const p = run(df, col("a").pow(col("e")));
    expect(p.dtype).toBe("int32");
    expectValues(p.values, [1024, -27, null, 0, null]);
    const f = run(df, col("a").pow(0.5));
    expect(f.dtype).toBe("float64");
    expectValues(f.values, [Math.SQRT2, NaN, Math.sqrt(7), Math.SQRT2, null]);
  });
});

describe("float arithmetic follows IEEE 754", () => {
  for (const dt of FLOAT_DTYPES) {
    for (const n of [1, 65, 100_003]) {
      it(`${dt} n=${n}`, () => {
        const [x, y] = pairRaw(dt, n, "some");
        const df = frameOf({ x: [dt, x], y: [dt, y] });
        const r = dt === "float32" ? Math.fround : (v: number) => v;
        const ops: [string, (a: number, b: number) => number][] = [
          ["add", (a, b) => r(a + b)], ["sub", (a, b) => r(a - b)], ["mul", (a, b) => r(a * b)],
          ["div", (a, b) => r(a / b)], ["floorDiv", (a, b) => r(Math.floor(a / b))], ["mod", (a, b) => r(modFloat(a, b))],
        ];
        for (const [name, f] of ops) {
          const e = (col("x") as unknown as Record<string, (o: unknown) => typeof col extends (...a: never) => infer R ? R : never>)[name]!(col("y"));
          const got = run(df, e);
          expect(got.dtype, name).toBe(dt);
          expectValues(got.values, zipRef(x, y, (a, b) => f(a as number, b as number)));
        }
        const sq = run(df, col("x").sqrt());
        expectValues(sq.values, x.map((a) => (a === null ? null : r(Math.sqrt(a as number)))));
        for (const [name, f] of [["floor", Math.floor], ["ceil", Math.ceil], ["abs", Math.abs]] as const) {
          const got = run(df, (col("x") as unknown as Record<string, () => never>)[name]!());
          expectValues(got.values, x.map((a) => (a === null ? null : f(a as number))));
        }
        expectValues(run(df, col("x").neg()).values, x.map((a) => (a === null ? null : -(a as number))));
      });
    }
  }

  it("division by zero gives ±inf and NaN; exp/log/round", () => {
    const df = frameOf({ a: ["float64", [1, -1, 0, NaN, 2.5, 0.5, 1.5, -2.5, 2.675]] });
    expectValues(run(df, col("a").div(0)).values, [Infinity, -Infinity, NaN, NaN, Infinity, Infinity, Infinity, -Infinity, Infinity]);
    expectValues(run(df, col("a").round()).values, [1, -1, 0, NaN, 2, 0, 2, -2, 3]);
    expectValues(run(df, col("a").round(2)).values, [1, -1, 0, NaN, 2.5, 0.5, 1.5, -2.5, 2.68]);
    const ex = run(df, col("a").exp()).values as number[];
    [1, -1, 0, NaN, 2.5].forEach((v, i) => (Number.isNaN(v) ? expect(ex[i]).toBeNaN() : expect(ex[i]).toBeCloseTo(Math.exp(v), 12)));
    const lg = run(frameOf({ a: ["int32", [1, 0, -1, 8]] }), col("a").log());
    expect(lg.dtype).toBe("float64");
    expect(lg.values.slice(0, 2)).toEqual([0, -Infinity]);
    expect(lg.values[2]).toBeNaN();
    expect(lg.values[3] as number).toBeCloseTo(Math.log(8), 14);
  });
});

describe("type promotion", () => {
  const cases: [DType, DType, DType][] = [
    ["int8", "int16", "int16"], ["int32", "int64", "int64"], ["uint8", "int8", "int16"], ["uint16", "int16", "int32"],
    ["uint32", "int32", "int64"], ["uint64", "int64", "float64"], ["uint8", "uint32", "uint32"], ["int64", "uint8", "int64"],
    ["int32", "float64", "float64"], ["int8", "float32", "float32"], ["int16", "float32", "float32"], ["int32", "float32", "float64"],
    ["uint64", "float32", "float64"], ["float32", "float64", "float64"],
  ];
  for (const [a, b, want] of cases) {
    it(`${a} + ${b} -> ${want}`, () => {
      const df = frameOf({ a: [a, [1, 2].map((v) => (a.endsWith("64") && a !== "float64" ? BigInt(v) : v))], b: [b, [3, 4].map((v) => (b.endsWith("64") && b !== "float64" ? BigInt(v) : v))] });
      const got = run(df, col("a").add(col("b")));
      expect(got.dtype).toBe(want);
      expect(got.values.map(Number)).toEqual([4, 6]);
    });
  }

  it("JS literals adapt: integral and fitting keeps the column dtype, otherwise widen/float", () => {
    const df = frameOf({ i8: ["int8", [127, -128]], f32: ["float32", [1.5, 2]], u64: ["uint64", [2n ** 64n - 1n, 0n]] });
    expect(run(df, col("i8").add(1))).toEqual({ dtype: "int8", values: [-128, -127] });
    expect(run(df, col("i8").add(1000))).toEqual({ dtype: "int32", values: [1127, 872] });
    expect(run(df, col("i8").add(1.5))).toEqual({ dtype: "float64", values: [128.5, -126.5] });
    expect(run(df, col("f32").mul(0.5)).dtype).toBe("float32");
    expect(run(df, col("u64").add(1n))).toEqual({ dtype: "uint64", values: [0n, 1n] });
    expect(run(df, col("i8").add(5n)).dtype).toBe("int8");
    expect(run(df, lit(1).add(lit(2)))).toEqual({ dtype: "int32", values: [3] });
    expect(run(df, lit(2n ** 40n)).dtype).toBe("int64");
    expect(run(df, lit(3, "uint16")).dtype).toBe("uint16");
    expect(run(df, col("i8").add(lit(null))).values).toEqual([null, null]);
    expect(run(df, col("i8").add(lit(null))).dtype).toBe("int8");
  });
});

describe("comparisons are exact across numeric dtypes", () => {
  const ops = ["eq", "neq", "lt", "lte", "gt", "gte"] as const;
  const test = (c: number, op: (typeof ops)[number]): boolean =>
    op === "eq" ? c === 0 : op === "neq" ? c !== 0 : op === "lt" ? c < 0 : op === "lte" ? c <= 0 : op === "gt" ? c > 0 : c >= 0;
  for (const a of NUMERIC_DTYPES) {
    it(`${a} against every numeric dtype`, () => {
      for (const b of NUMERIC_DTYPES) {
        const x = rawColumn(a, 33, "some");
        const y = rawColumn(b, 40, "none").slice(7);
        const df = frameOf({ x: [a, x], y: [b, y] });
        for (const op of ops) {
          const got = run(df, (col("x") as unknown as Record<string, (o: unknown) => never>)[op]!(col("y")));
          expect(got.dtype).toBe("bool");
          const want = zipRef(x, y, (p, q) => test(cmpRef(p as number, q as number), op));
          expect(diffValues(got.values, want), `${a} ${op} ${b}`).toBeNull();
        }
      }
    });
  }

  it("int64 vs float64 literal beyond 2^53 compares exactly; NaN is the largest and equals itself", () => {
    const df = frameOf({ a: ["int64", [2n ** 53n + 1n, 2n ** 53n, I64_MAX]], f: ["float64", [NaN, Infinity, -0]] });
    expect(run(df, col("a").gt(2 ** 53)).values).toEqual([true, false, true]);
    expect(run(df, col("a").eq(2 ** 53)).values).toEqual([false, true, false]);
    expect(run(df, col("a").lt(2 ** 63)).values).toEqual([true, true, true]);
    expect(run(df, col("f").eq(NaN)).values).toEqual([true, false, false]);
    expect(run(df, col("f").gt(Infinity)).values).toEqual([true, false, false]);
    expect(run(df, col("f").eq(0)).values).toEqual([false, false, true]);
  });

  it("isBetween is inclusive at both ends; isIn matches exactly and keeps nulls", () => {
    const df = frameOf({ a: ["int32", [0, 1, 5, 10, 11, null]], f: ["float64", [0.5, 1, NaN, 10, 11, 3]] });
    expect(run(df, col("a").isBetween(1, 10)).values).toEqual([false, true, true, true, false, null]);
    expect(run(df, col("a").isIn([1, 10, null, 2.5])).values).toEqual([false, true, false, true, false, null]);
    expect(run(df, col("f").isIn([NaN, 1n])).values).toEqual([false, true, true, false, false, false]);
    expect(() => run(df, col("a").isIn(["x"]))).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
  });
});

describe("Kleene logic", () => {
  const V = [true, true, true, false, false, false, null, null, null];
  const W = [true, false, null, true, false, null, true, false, null];
  const df = frameOf({ a: ["bool", V], b: ["bool", W] });
  it("and / or / xor / not truth tables", () => {
    expect(run(df, col("a").and(col("b"))).values).toEqual([true, false, null, false, false, false, null, false, null]);
    expect(run(df, col("a").or(col("b"))).values).toEqual([true, true, true, true, false, null, true, null, null]);
    expect(run(df, col("a").xor(col("b"))).values).toEqual([false, true, null, true, false, null, null, null, null]);
    expect(run(df, col("a").not()).values).toEqual([false, false, false, true, true, true, null, null, null]);
    expect(run(df, col("a").and(null)).values).toEqual([null, null, null, false, false, false, null, null, null]);
    expect(run(df, col("a").or(true)).values).toEqual(V.map(() => true));
  });
  it("isNull / isNotNull on every dtype; isNaN on numbers", () => {
    for (const dt of ["bool", "int8", "uint64", "float32", "utf8", "large_utf8", "date32", "timestamp[ns]"] as DType[]) {
      const raw = rawColumn(dt, 65, "some");
      const d = frameOf({ x: [dt, raw] }).slice(3, 50);
      expect(run(d, col("x").isNull()).values).toEqual(raw.slice(3, 53).map((v) => v === null));
      expect(run(d, col("x").isNotNull()).values).toEqual(raw.slice(3, 53).map((v) => v !== null));
    }
    const f = frameOf({ x: ["float32", [NaN, 1, null, Infinity]], i: ["int16", [1, null, 3, 4]] });
    expect(run(f, col("x").isNaN()).values).toEqual([true, false, null, false]);
    expect(run(f, col("i").isNaN()).values).toEqual([false, null, false, false]);
  });
});

describe("fillNull / fillNaN / cast / when", () => {
  it("fillNull uses the supertype; fillNaN replaces NaN only", () => {
    const df = frameOf({ i: ["int16", [1, null, 3]], f: ["float32", [NaN, null, 2]], s: ["utf8", ["a", null, "é"]] });
    expect(run(df, col("i").fillNull(0))).toEqual({ dtype: "int16", values: [1, 0, 3] });
    expect(run(df, col("i").fillNull(0.5))).toEqual({ dtype: "float64", values: [1, 0.5, 3] });
    expect(run(df, col("f").fillNaN(0))).toEqual({ dtype: "float32", values: [0, null, 2] });
    expect(run(df, col("f").fillNull(col("i")))).toEqual({ dtype: "float32", values: [NaN, null, 2] });
    expect(run(df, col("s").fillNull("x"))).toEqual({ dtype: "utf8", values: ["a", "x", "é"] });
    expect(() => run(df, col("s").fillNull(1))).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
  });
  it("cast: out-of-range and NaN become null; float -> int truncates", () => {
    const df = frameOf({ f: ["float64", [300.5, NaN, -1.7, 127.9, -Infinity]], i: ["int64", [-1n, 256n, I64_MAX, 5n, 0n]] });
    expect(run(df, col("f").cast("int8")).values).toEqual([null, null, -1, 127, null]);
    expect(run(df, col("i").cast("uint8")).values).toEqual([null, null, null, 5, 0]);
    expect(run(df, col("i").cast("float32")).values).toEqual([-1, 256, Math.fround(2 ** 63), 5, 0]);
    expect(run(df, col("i").cast("bool")).values).toEqual([true, true, true, true, false]);
    expect(run(df, col("f").cast("utf8")).values).toEqual(["300.5", "NaN", "-1.7", "127.9", "-inf"]);
    const t = frameOf({ d: ["date32", [1, -1]] });
    expect(() => run(t, col("d").cast("float64"))).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    expect(run(t, col("d").cast("timestamp[ms]")).values).toEqual([new Date(86_400_000), new Date(-86_400_000)]);
  });
  it("when/then chains; null conditions count as false; no otherwise gives null", () => {
    const df = frameOf({ a: ["int32", [1, 5, null, -3]] });
    const e = when(col("a").gt(3)).then(lit("big")).when(col("a").gt(0)).then(lit("small")).otherwise(lit("other"));
    expect(run(df, e)).toEqual({ dtype: "utf8", values: ["small", "big", "other", "other"] });
    expect(run(df, when(col("a").lt(0)).then(col("a").neg())).values).toEqual([null, null, null, 3]);
    expect(run(df, when(col("a").gt(0)).then(1.5).otherwise(col("a"))).values).toEqual([1.5, 1.5, null, -3]);
  });
});

describe("names, broadcasting, errors, sizes", () => {
  const df = new DataFrame({ a: [1, 2, 3], s: ["x", "y", "z"] });
  it("output names follow the leftmost input unless aliased", () => {
    expect(df.select(col("a").add(1), lit(1).add(col("a")).alias("b")).columns).toEqual(["a", "b"]);
    expect(df.select(lit(5)).columns).toEqual(["literal"]);
    expect(df.select(when(col("a").gt(1)).then(col("s")).otherwise(lit("n"))).columns).toEqual(["s"]);
    expect(() => df.select(col("a"), col("a").add(1))).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
  });
  it("literals broadcast next to columns and give one row alone", () => {
    expect(df.select(col("a"), lit("k")).toRecords()).toEqual([{ a: 1, literal: "k" }, { a: 2, literal: "k" }, { a: 3, literal: "k" }]);
    expect(df.select(lit(7).alias("x")).toRecords()).toEqual([{ x: 7 }]);
    expect(new DataFrame().select(lit(true)).toRecords()).toEqual([{ literal: true }]);
  });
  it("withColumns replaces in place and appends", () => {
    const out = df.withColumns(col("a").mul(2), col("a").gt(1).alias("big"));
    expect(out.columns).toEqual(["a", "s", "big"]);
    expect(out.toRecords()[2]).toEqual({ a: 6, s: "z", big: true });
  });
  it("typed errors", () => {
    const code = (f: () => unknown) => {
      try { f(); } catch (e) { return (e as { code: string }).code; }
      return "none";
    };
    expect(code(() => df.select(col("nope")))).toBe("ERR_COLUMN_NOT_FOUND");
    expect(code(() => df.select(col("s").add(1)))).toBe("ERR_DTYPE");
    expect(code(() => df.select(col("a").str.len()))).toBe("ERR_DTYPE");
    expect(code(() => df.select(col("a").and(true)))).toBe("ERR_DTYPE");
    expect(code(() => df.select(col("s").dt.year()))).toBe("ERR_DTYPE");
    expect(code(() => df.select(col("a").round(-1)))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.select(lit({} as never)))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.select(col("a").cast("nope" as DType)))).toBe("ERR_DTYPE");
    expect(code(() => frameOf({ u: ["uint8", [1]] }).select(col("u").neg()))).toBe("ERR_DTYPE");
    // Too many nodes: 150 additions (301 nodes) fail natively; 300 nest too deep to be built.
    let big = col("a");
    for (let i = 0; i < 150; i++) big = big.add(i);
    expect(code(() => df.select(big))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => {
      for (let i = 0; i < 150; i++) big = big.add(i);
      return big;
    })).toBe("ERR_INVALID_ARGUMENT");
  });
  for (const n of LENGTHS) {
    it(`fused chain over ${n} rows`, () => {
      const x = rawColumn("int32", n, "some");
      const d = frameOf({ x: ["int32", x] });
      const e = col("x").mul(3).add(1).floorDiv(2).gt(0).and(col("x").isNotNull());
      expect(diffValues(run(d, e).values, x.map((v) => (v === null ? false : floorDivBig(BigInt.asIntN(32, big(v) * 3n + 1n), 2n) > 0n)))).toBeNull();
    });
  }
  for (const n of SMALL_LENGTHS) {
    it(`all-null column over ${n} rows`, () => {
      const d = frameOf({ x: ["float64", rawColumn("float64", n, "all")] });
      expect(run(d, col("x").add(1).fillNull(2)).values).toEqual(new Array(n).fill(2));
    });
  }
});

// Keeps isInt referenced for type checking of the helper module.
void isInt;
