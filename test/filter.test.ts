// filter / dropNulls / fillNull / Series.filter over every dtype and the edge matrix; expected
// rows are picked in JS from the generated raw columns.
import { describe, expect, it } from "vitest";
import { col, DataFrame, fromArrow, lit, Series, type DType, type Expr } from "../src/index.js";
import { ALL_DTYPES, diffValues, expectSameFrame, LENGTHS, makeArrowTable, NULL_PATTERNS, rawColumn, toJsValue } from "./helpers.js";

function expected(dt: DType, n: number, nulls: (typeof NULL_PATTERNS)[number], keep: (i: number) => boolean, lo = 0): unknown[] {
  const raw = rawColumn(dt, n, nulls, { dateSafe: true });
  const out: unknown[] = [];
  for (let i = lo; i < n; i++) if (keep(i)) out.push(toJsValue(dt, raw[i] ?? null));
  return out;
}

describe("filter compacts every dtype", () => {
  for (const n of LENGTHS) {
    for (const nulls of NULL_PATTERNS) {
      it(`n=${n} nulls=${nulls}`, () => {
        const df = fromArrow(makeArrowTable(n, nulls, ALL_DTYPES, { dateSafe: true }));
        const flags = Array.from({ length: n }, (_, i) => (i % 5 === 0 ? null : i % 3 !== 0 || i % 7 === 1));
        const out = df.filter(new Series("m", flags, "bool"));
        const keep = (i: number) => flags[i] === true;
        expect(out.height).toBe(flags.filter((f) => f === true).length);
        for (const dt of ALL_DTYPES) {
          expect(diffValues(out.getColumn(dt).toArray(), expected(dt, n, nulls, keep)), dt).toBeNull();
          expect(out.getColumn(dt).dtype).toBe(dt);
        }
        // An expression predicate over a sliced frame (offset 3: not a multiple of 8).
        if (n > 3) {
          const s = df.slice(3);
          const byExpr = s.filter(col("int32").gt(0).or(col("utf8").str.contains("🦀")));
          const i32 = rawColumn("int32", n, nulls);
          const str = rawColumn("utf8", n, nulls);
          const k2 = (i: number) => (i32[i] !== null && (i32[i] as number) > 0) || (str[i] !== null && (str[i] as string).includes("🦀"));
          for (const dt of ["int32", "utf8", "large_utf8", "bool", "float64", "timestamp[ns]"] as DType[]) {
            expect(diffValues(byExpr.getColumn(dt).toArray(), expected(dt, n, nulls, k2, 3)), dt).toBeNull();
          }
        }
      });
    }
  }

  it("null predicate rows are dropped; all-false and all-true; literal predicates", () => {
    const df = new DataFrame({ a: [1, 2, 3], s: ["x", null, "é"] });
    expect(df.filter(col("s").eq("x")).toRecords()).toEqual([{ a: 1, s: "x" }]);
    expect(df.filter(col("a").gt(10)).height).toBe(0);
    expect(df.filter(col("a").gt(10)).dtypes).toEqual(["float64", "utf8"]);
    expect(df.filter(lit(true)).toRecords()).toEqual(df.toRecords());
    expect(df.filter(lit(null, "bool")).height).toBe(0);
    expect(new DataFrame({ a: [] as number[] }).filter(col("a").gt(0)).height).toBe(0);
  });

  it("errors: non-bool predicate, wrong mask length, unknown column", () => {
    const df = new DataFrame({ a: [1, 2, 3] });
    expect(() => df.filter(col("a"))).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    expect(() => df.filter(new Series("m", [true, false]))).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => df.filter(new Series("m", [1, 2, 3]))).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    expect(() => df.filter(col("b").gt(1))).toThrow(expect.objectContaining({ code: "ERR_COLUMN_NOT_FOUND" }));
  });

  it("Series.filter keeps its name and dtype", () => {
    const s = new Series("v", ["a", "日本", null, "d"]).slice(1);
    const out = s.filter(new Series("m", [true, true, null]));
    expect(out.name).toBe("v");
    expect(out.toArray()).toEqual(["日本", null]);
  });
});

describe("dropNulls and fillNull", () => {
  const df = new DataFrame({ a: [1, null, 3, 4], s: ["x", "y", null, "z"], b: [true, null, false, true] });
  it("dropNulls over all columns or a subset", () => {
    expect(df.dropNulls().toRecords()).toEqual([{ a: 1, s: "x", b: true }, { a: 4, s: "z", b: true }]);
    expect(df.dropNulls("s").getColumn("a").toArray()).toEqual([1, null, 4]);
    expect(df.dropNulls(["a"]).getColumn("s").toArray()).toEqual(["x", null, "z"]);
    expect(() => df.dropNulls("nope")).toThrow(expect.objectContaining({ code: "ERR_COLUMN_NOT_FOUND" }));
  });
  it("dropNulls over more columns than one pass holds, on 100_003 rows", () => {
    const n = 100_003;
    const cols: Record<string, (number | null)[]> = {};
    for (let c = 0; c < 70; c++) cols[`c${c}`] = Array.from({ length: n }, (_, i) => (i % 1000 === c ? null : i));
    const out = new DataFrame(cols).dropNulls();
    const want = Array.from({ length: n }, (_, i) => i).filter((i) => i % 1000 >= 70);
    expect(diffValues(out.getColumn("c69").toArray(), want)).toBeNull();
  });
  it("a scalar fills matching columns and leaves the others", () => {
    expect(df.fillNull(0).toRecords()[1]).toEqual({ a: 0, s: "y", b: null });
    expect(df.fillNull("?").getColumn("s").toArray()).toEqual(["x", "y", "?", "z"]);
    expect(df.fillNull(false).getColumn("b").toArray()).toEqual([true, false, false, true]);
    const ints = new DataFrame({ i: new Series("i", [1, null], "int16"), t: [new Date(0), null] });
    expect(ints.fillNull(7).dtypes).toEqual(["int16", "timestamp[ms]"]);
    expect(ints.fillNull(new Date(5)).getColumn("t").toArray()).toEqual([new Date(0), new Date(5)]);
  });
  it("a mapping fills named columns; incompatible values are dtype errors", () => {
    expect(df.fillNull({ a: -1, s: "none" }).toRecords()[2]).toEqual({ a: 3, s: "none", b: false });
    expect(() => df.fillNull({ a: "x" })).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    expect(() => df.fillNull({ nope: 1 })).toThrow(expect.objectContaining({ code: "ERR_COLUMN_NOT_FOUND" }));
  });
});

// The CPU interpreter fuses "column OP literal" for integer-lane and string columns (the column
// is read straight from its buffers): these pin its results to a JS reference, with nulls, a
// slice whose offset is not a multiple of 8, several blocks, and a column that an unfused node
// reads too.
describe("column-vs-literal comparisons (fused on the CPU)", () => {
  const n = 10_007;
  const ints = Array.from({ length: n }, (_, i) => (i % 13 === 0 ? null : ((i * 7919) % 201) - 100));
  const strs = Array.from({ length: n }, (_, i) =>
    i % 11 === 0 ? null : ["x", "", "héllo", "xy", "a much longer string value", "X"][(i * 31) % 6] as string,
  );
  const frame = new DataFrame({ a: new Series("a", ints, "int32"), b: new Series("b", ints, "int64"), s: strs });
  const cases: [string, (v: number) => boolean, (e: ReturnType<typeof col>) => ReturnType<typeof col>][] = [
    ["eq", (v) => v === 7, (e) => e.eq(7)],
    ["neq", (v) => v !== 7, (e) => e.neq(7)],
    ["lt", (v) => v < -3, (e) => e.lt(-3)],
    ["lte", (v) => v <= -3, (e) => e.lte(-3)],
    ["gt", (v) => v > 50, (e) => e.gt(50)],
    ["gte", (v) => v >= 50, (e) => e.gte(50)],
  ];
  for (const [offset, len] of [[0, n], [3, n - 40]] as const) {
    const df = frame.slice(offset, len);
    const rows = ints.slice(offset, offset + len);
    const srows = strs.slice(offset, offset + len);
    for (const [name, ref, make] of cases) {
      it(`int32 and int64 ${name} at offset ${offset}`, () => {
        const want = rows.map((v) => (v === null ? null : ref(v)));
        expect(df.select(make(col("a")).alias("r")).getColumn("r").toArray()).toEqual(want);
        expect(df.select(make(col("b")).alias("r")).getColumn("r").toArray()).toEqual(want);
      });
    }
    for (const needle of ["x", "", "héllo", "a much longer string value"]) {
      it(`utf8 eq / neq ${JSON.stringify(needle)} at offset ${offset}`, () => {
        expect(df.select(col("s").eq(needle).alias("r")).getColumn("r").toArray()).toEqual(
          srows.map((v) => (v === null ? null : v === needle)),
        );
        expect(df.select(col("s").neq(needle).alias("r")).getColumn("r").toArray()).toEqual(
          srows.map((v) => (v === null ? null : v !== needle)),
        );
      });
    }
    it(`a column read by a fused and an unfused node at offset ${offset}`, () => {
      const got = df.filter(col("a").gt(0).and(col("a").add(1).lt(40)).and(col("s").eq("x"))).getColumn("a").toArray();
      const want = rows.filter((v, i) => v !== null && v > 0 && v + 1 < 40 && srows[i] === "x");
      expect(got).toEqual(want);
      expect(want.length).toBeGreaterThan(0);
    });
  }
});

describe("filter predicates made of ANDed comparisons (the CPU's byte-mask path)", () => {
  // The same predicate OR false is not such a conjunction, so it takes the general path: both
  // must keep exactly the same rows.
  const df = new DataFrame({
    i: [1, null, 3, 4, 5, -2, 7, null, 9, 10, 3, 3],
    f: [0.5, Number.NaN, null, 2.5, -1, 0.5, Number.POSITIVE_INFINITY, 3, 0.5, -0, 0, 4],
    s: ["a", "é", null, "abc", "", "a", "日本", "a", "b", null, "a", "abc"],
    b: [true, false, null, true, true, false, true, null, true, true, false, true],
    d: Int32Array.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
  });
  const preds: [string, Expr][] = [
    ["int range", col("i").gte(3).and(col("i").lt(9))],
    ["float with NaN", col("f").gt(0.5).and(col("f").neq(4))],
    ["float equality at 0 and -0", col("f").eq(0).and(col("d").gt(0))],
    ["NaN equals NaN", col("f").eq(Number.NaN)],
    ["strings", col("s").eq("a").and(col("i").isNotNull())],
    ["string neq, empty", col("s").neq("").and(col("s").neq("abc"))],
    ["null tests and a bool column", col("b").and(col("s").isNull().not().not()).and(col("i").isNull())],
    ["bool column alone with others", col("b").and(col("d").lte(7))],
    ["two float columns (nulls, NaN)", col("f").lt(col("i")).and(col("d").gt(0))],
    ["two float columns, the other way", col("i").gte(col("f"))],
    ["two columns of other dtypes (cast: the general path inside)", col("i").lt(col("d")).and(col("f").lte(col("f").mul(2)))],
    ["two columns, one dtype", col("d").gte(col("d")).and(col("i").neq(col("i").add(1)))],
    ["isIn of strings and ints", col("s").isIn(["a", "日本", ""]).and(col("d").isIn([1, 5, 6, 8, 11]))],
    ["isIn with a null in the list", col("s").isIn(["a", null]).and(col("i").isIn([3, 9]))],
    ["OR of ANDs (null OR true keeps the row)", col("i").gt(4).and(col("s").eq("a")).or(col("f").lt(1).and(col("b"))).or(col("s").isNull())],
    ["AND of ORs", col("d").lt(3).or(col("d").gt(8)).and(col("s").eq("a").or(col("i").isNull()))],
  ];
  it.each(preds)("%s", (_, p) => {
    const fast = df.filter(p);
    const general = df.filter(p.or(lit(false)));
    expectSameFrame(fast, general);
    expectSameFrame(df.lazy().filter(p).collectSync(), general);
  });
});

describe("byte-mask comparisons over vector-length blocks (every operator, NaN, ±Infinity, -0, literals out of an integer column's range)", () => {
  // 1003 rows: whole vectors of every width and a tail. Each comparison is checked against the
  // same predicate OR false (the general path) and against the values picked in JS.
  const n = 1003;
  const special = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 0, 0.5, 0.1];
  const f = Array.from({ length: n }, (_, i) => (i % 17 === 3 ? null : i % 5 === 0 ? special[i % special.length]! : ((i * 37) % 101) / 10 - 5));
  const h = Float32Array.from({ length: n }, (_, i) => (i % 9 === 0 ? 0.1 : i % 13 === 0 ? Number.NaN : ((i * 7) % 23) / 4 - 2));
  const d = Int32Array.from({ length: n }, (_, i) => ((i * 7919) % 2001) - 1000);
  const k = Int8Array.from({ length: n }, (_, i) => ((i * 31) % 256) - 128);
  const df = new DataFrame({ f, h, d, k });
  const ops = ["eq", "neq", "lt", "lte", "gt", "gte"] as const;
  // compare_values' order: NaN equals NaN and is above every number; null rows are dropped.
  const holds = (op: (typeof ops)[number], x: number, l: number): boolean => {
    const c = Number.isNaN(x) ? (Number.isNaN(l) ? 0 : 1) : Number.isNaN(l) ? -1 : x < l ? -1 : x > l ? 1 : 0;
    return { eq: c === 0, neq: c !== 0, lt: c < 0, lte: c <= 0, gt: c > 0, gte: c >= 0 }[op];
  };
  const cases: [string, (typeof ops)[number], number | bigint][] = [];
  for (const op of ops) {
    for (const l of [0.5, 0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN]) cases.push(["f", op, l]);
    for (const l of [0.1, -1.75]) cases.push(["h", op, l]);
    for (const l of [17n, 1n << 40n, -(1n << 40n)]) cases.push(["d", op, l]);
    for (const l of [5n, 300n, -129n]) cases.push(["k", op, l]);
  }
  it.each(cases)("%s %s %s", (name, op, l) => {
    const p = (col(name) as unknown as Record<string, (x: Expr) => Expr>)[op]!(lit(l));
    const fast = df.filter(p);
    expectSameFrame(fast, df.filter(p.or(lit(false))));
    const values = (name === "f" ? f : Array.from(name === "h" ? h : name === "d" ? d : k)) as (number | null)[];
    // A weak float literal takes a float32 column's dtype (docs/semantics.md, "Literals").
    const lv = name === "h" ? Math.fround(Number(l)) : Number(l);
    const want = values.filter((x): x is number => x !== null && holds(op, x, lv));
    expect(fast.getColumn(name).toArray().length).toBe(want.length);
    expect(fast.getColumn(name).toArray()).toEqual(want);
  });
});

describe("filter moves strings of every length across chunk boundaries", () => {
  // 70,001 rows (several 16,384-row chunks on every thread) of strings of 0..40 bytes, some
  // multi-byte, kept in runs and gaps; whole and as a slice that ends inside the characters.
  const n = 70_001;
  const strs = Array.from({ length: n }, (_, i) => (i % 13 === 7 ? null : "abcdéfghijklmnopqrstuvwxyz0123456789ABCDEFG".slice(0, i % 41) + (i % 5 === 0 ? "日" : "")));
  const keep = Array.from({ length: n }, (_, i) => (i % 97 < 60 || i % 3 === 0) && i % 1000 !== 999);
  it.each([
    ["whole", 0, n],
    ["a slice", 3, n - 5],
  ])("%s", (_, from, to) => {
    const df = new DataFrame({ s: strs, k: keep }).slice(from, to - from);
    const got = df.filter(col("k")).getColumn("s").toArray();
    const want = strs.slice(from, to).filter((_, i) => keep[from + i]);
    expect(got.length).toBe(want.length);
    expect(got).toEqual(want);
  });
});
