import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ColumnNotFoundError, DataFrame, GpudfError, InvalidArgumentError, Series, fromArrow } from "../src/index.js";
import type { DType } from "../src/index.js";
import {
  ALL_DTYPES,
  LENGTHS,
  type Raw,
  SMALL_LENGTHS,
  arrowTypeFor,
  diffValues,
  expectedJs,
  makeArrowTable,
  rawColumn,
  rawValues,
  typeSignature,
} from "./helpers.js";

const A = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const B = ["a", "héllo", "日本語", "🦀", null, "f", "g", "h", "i", "j"];
const C = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];

/** A 10x3 frame: a float64, b utf8 (one null), c int32. */
function frame(): DataFrame {
  return new DataFrame({ a: A, b: B, c: Int32Array.from(C) });
}

/** Column values of a frame, by name, as toArray() gives them. */
function contents(df: DataFrame): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const name of df.columns) out[name] = df.getColumn(name).toArray();
  return out;
}

function rows(lo: number, hi: number): Record<string, unknown[]> {
  return { a: A.slice(lo, hi), b: B.slice(lo, hi), c: C.slice(lo, hi) };
}

function expectError(fn: () => unknown, cls: abstract new (...a: never[]) => GpudfError, code: string): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, "expected a throw").toBeDefined();
  expect(err).toBeInstanceOf(cls);
  expect(err).toBeInstanceOf(GpudfError);
  expect((err as GpudfError).code).toBe(code);
}

describe("shape and schema", () => {
  it("shape, height, width, columns, dtypes, schema", () => {
    const df = frame();
    expect(df.shape).toEqual([10, 3]);
    expect(df.height).toBe(10);
    expect(df.width).toBe(3);
    expect(df.columns).toEqual(["a", "b", "c"]);
    expect(df.dtypes).toEqual(["float64", "utf8", "int32"]);
    expect(df.schema).toEqual({ a: "float64", b: "utf8", c: "int32" });
  });

  it("columns / dtypes arrays returned to the caller cannot change the frame", () => {
    const df = frame();
    const cols = df.columns as string[];
    cols.push("zzz");
    cols[0] = "q";
    const dts = df.dtypes as DType[];
    dts[0] = "int8";
    const sch = df.schema as Record<string, DType>;
    sch.a = "int8";
    expect(df.columns).toEqual(["a", "b", "c"]);
    expect(df.dtypes).toEqual(["float64", "utf8", "int32"]);
    expect(df.schema).toEqual({ a: "float64", b: "utf8", c: "int32" });
  });

  for (const n of SMALL_LENGTHS) {
    it(`shape of an every-dtype frame of length ${n}`, () => {
      const df = fromArrow(makeArrowTable(n, "some"));
      expect(df.shape).toEqual([n, ALL_DTYPES.length]);
      expect(df.height).toBe(n);
      expect(df.width).toBe(ALL_DTYPES.length);
    });
  }
});

describe("select / drop / rename / getColumn", () => {
  it("select variadic, arrays, and mixed; order as given", () => {
    const df = frame();
    expect(df.select("c", "a").columns).toEqual(["c", "a"]);
    expect(contents(df.select("c", "a"))).toEqual({ c: C, a: A });
    expect(df.select(["b"]).columns).toEqual(["b"]);
    expect(df.select("a", ["c", "b"]).columns).toEqual(["a", "c", "b"]);
    expect(df.select(["c"], ["a"]).dtypes).toEqual(["int32", "float64"]);
    expect(df.select("b").shape).toEqual([10, 1]);
  });

  it("select unknown name -> ColumnNotFoundError; duplicate -> InvalidArgumentError", () => {
    const df = frame();
    expectError(() => df.select("a", "nope"), ColumnNotFoundError, "ERR_COLUMN_NOT_FOUND");
    expectError(() => df.select(["nope"]), ColumnNotFoundError, "ERR_COLUMN_NOT_FOUND");
    expectError(() => df.select("A"), ColumnNotFoundError, "ERR_COLUMN_NOT_FOUND");
    expectError(() => df.select("a", "a"), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    expectError(() => df.select("a", ["b", "a"]), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
  });

  it("drop variadic and arrays", () => {
    const df = frame();
    expect(df.drop("b").columns).toEqual(["a", "c"]);
    expect(contents(df.drop("b"))).toEqual({ a: A, c: C });
    expect(df.drop(["a", "c"]).columns).toEqual(["b"]);
    expect(df.drop("a", ["c"]).dtypes).toEqual(["utf8"]);
    const none = df.drop("a", "b", "c");
    expect(none.width).toBe(0);
    expect(none.columns).toEqual([]);
  });

  it("drop unknown -> ColumnNotFoundError", () => {
    expectError(() => frame().drop("zz"), ColumnNotFoundError, "ERR_COLUMN_NOT_FOUND");
    expectError(() => frame().drop("a", ["zz"]), ColumnNotFoundError, "ERR_COLUMN_NOT_FOUND");
  });

  it("rename keeps positions and data", () => {
    const df = frame();
    const r = df.rename({ a: "x", c: "日本" });
    expect(r.columns).toEqual(["x", "b", "日本"]);
    expect(r.dtypes).toEqual(["float64", "utf8", "int32"]);
    expect(contents(r)).toEqual({ x: A, b: B, 日本: C });
    expect(df.rename({}).columns).toEqual(["a", "b", "c"]);
  });

  it("rename can swap two names", () => {
    const r = frame().rename({ a: "c", c: "a" });
    expect(r.columns).toEqual(["c", "b", "a"]);
    expect(r.getColumn("c").toArray()).toEqual(A);
    expect(r.getColumn("a").toArray()).toEqual(C);
  });

  it("rename unknown -> ColumnNotFoundError; duplicate result -> InvalidArgumentError", () => {
    expectError(() => frame().rename({ zz: "y" }), ColumnNotFoundError, "ERR_COLUMN_NOT_FOUND");
    expectError(() => frame().rename({ a: "b" }), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    expectError(() => frame().rename({ a: "q", b: "q" }), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
  });

  it("getColumn returns a Series with the column's name, dtype and values", () => {
    const s = frame().getColumn("b");
    expect(s).toBeInstanceOf(Series);
    expect(s.name).toBe("b");
    expect(s.dtype).toBe("utf8");
    expect(s.length).toBe(10);
    expect(s.nullCount).toBe(1);
    expect(s.toArray()).toEqual(B);
    expectError(() => frame().getColumn("nope"), ColumnNotFoundError, "ERR_COLUMN_NOT_FOUND");
  });
});

describe("withColumn", () => {
  it("replacing a column keeps its position", () => {
    const df = frame();
    const vals = ["x", "y", "z", "w", "v", "u", "t", "s", "r", "q"];
    const r = df.withColumn(new Series("b", vals));
    expect(r.columns).toEqual(["a", "b", "c"]);
    expect(r.dtypes).toEqual(["float64", "utf8", "int32"]);
    expect(r.getColumn("b").toArray()).toEqual(vals);
    const r2 = df.withColumn(new Series("a", BigInt64Array.from(C, (v) => BigInt(v))));
    expect(r2.columns).toEqual(["a", "b", "c"]);
    expect(r2.dtypes).toEqual(["int64", "utf8", "int32"]);
  });

  it("a new name is appended at the end", () => {
    const r = frame().withColumn(new Series("d", [true, false, null, true, true, false, false, true, null, true]));
    expect(r.columns).toEqual(["a", "b", "c", "d"]);
    expect(r.dtypes).toEqual(["float64", "utf8", "int32", "bool"]);
    expect(r.getColumn("d").toArray()).toEqual([true, false, null, true, true, false, false, true, null, true]);
    expect(contents(r.select("a", "b", "c"))).toEqual(rows(0, 10));
  });

  it("length mismatch -> InvalidArgumentError", () => {
    expectError(() => frame().withColumn(new Series("d", [1, 2, 3])), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    expectError(() => frame().withColumn(new Series("a", [])), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
  });

  it("a width-0 frame takes a column of any length", () => {
    const r = new DataFrame().withColumn(new Series("x", [1, 2, 3]));
    expect(r.shape).toEqual([3, 1]);
    expect(r.getColumn("x").toArray()).toEqual([1, 2, 3]);
  });

  it("a Series taken from a slice of another frame", () => {
    const src = fromArrow(makeArrowTable(65, "some", ["bool", "utf8"]));
    const s = src.slice(3, 10).getColumn("utf8");
    const r = frame().withColumn(s);
    expect(r.columns).toEqual(["a", "b", "c", "utf8"]);
    expect(diffValues(rawValues(r.toArrow().getChildAt(3)!), rawColumn("utf8", 65, "some").slice(3, 13))).toBeNull();
  });
});

describe("head / tail / slice", () => {
  it("head defaults to 5, head(n), head(0), head(n > height)", () => {
    const df = frame();
    expect(contents(df.head())).toEqual(rows(0, 5));
    expect(contents(df.head(3))).toEqual(rows(0, 3));
    expect(df.head(0).shape).toEqual([0, 3]);
    expect(df.head(0).dtypes).toEqual(["float64", "utf8", "int32"]);
    expect(contents(df.head(100))).toEqual(rows(0, 10));
    expect(contents(df.head(10))).toEqual(rows(0, 10));
  });

  it("tail defaults to 5, tail(n), tail(0), tail(n > height)", () => {
    const df = frame();
    expect(contents(df.tail())).toEqual(rows(5, 10));
    expect(contents(df.tail(3))).toEqual(rows(7, 10));
    expect(df.tail(0).shape).toEqual([0, 3]);
    expect(contents(df.tail(11))).toEqual(rows(0, 10));
  });

  it("head/tail with negative n -> InvalidArgumentError", () => {
    expectError(() => frame().head(-1), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    expectError(() => frame().tail(-1), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
  });

  it("slice(offset, length)", () => {
    const df = frame();
    expect(contents(df.slice(2, 3))).toEqual(rows(2, 5));
    expect(contents(df.slice(0))).toEqual(rows(0, 10));
    expect(contents(df.slice(4))).toEqual(rows(4, 10));
    expect(df.slice(2, 0).shape).toEqual([0, 3]);
  });

  it("slice with a negative offset counts from the end", () => {
    const df = frame();
    expect(contents(df.slice(-3))).toEqual(rows(7, 10));
    expect(contents(df.slice(-3, 2))).toEqual(rows(7, 9));
    expect(contents(df.slice(-10))).toEqual(rows(0, 10));
    expect(contents(df.slice(-1, 1))).toEqual(rows(9, 10));
  });

  it("slice clamps to the frame", () => {
    const df = frame();
    expect(contents(df.slice(8, 100))).toEqual(rows(8, 10));
    expect(contents(df.slice(-3, 10))).toEqual(rows(7, 10));
    expect(df.slice(10).shape).toEqual([0, 3]);
    expect(df.slice(100).shape).toEqual([0, 3]);
    expect(df.slice(100, 5).shape).toEqual([0, 3]);
  });

  it("slice with negative length -> InvalidArgumentError", () => {
    expectError(() => frame().slice(2, -1), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
  });

  it("slices of slices, head and tail of slices", () => {
    const df = frame();
    expect(contents(df.slice(1, 8).slice(2, 3))).toEqual(rows(3, 6));
    expect(contents(df.slice(1, 8).head(2))).toEqual(rows(1, 3));
    expect(contents(df.slice(1, 8).tail(2))).toEqual(rows(7, 9));
    expect(contents(df.slice(1, 8).slice(-2))).toEqual(rows(7, 9));
  });

  it("head / tail / slice of an empty frame", () => {
    const e = new DataFrame({ a: [], s: [] as string[] });
    expect(e.head().shape).toEqual([0, 2]);
    expect(e.tail(3).shape).toEqual([0, 2]);
    expect(e.slice(0, 4).shape).toEqual([0, 2]);
    expect(e.slice(-1).shape).toEqual([0, 2]);
  });
});

describe("slicing then toArrow keeps exact values (offsets not a multiple of 8)", () => {
  const dts: DType[] = ["bool", "utf8", "large_utf8", "int8", "int64", "float32", "timestamp[ns]", "date32"];
  const ranges: [number, number][] = [
    [3, 30],
    [1, 64],
    [9, 1],
    [63, 2],
    [5, 0],
  ];
  for (const nulls of ["none", "some", "all"] as const) {
    for (const [off, len] of ranges) {
      it(`df.slice(${off}, ${len}) of 65 rows, nulls ${nulls}`, () => {
        const df = fromArrow(makeArrowTable(65, nulls, dts));
        const out = df.slice(off, len).toArrow();
        expect(out.numRows).toBe(len);
        dts.forEach((dt, i) => {
          const want = rawColumn(dt, 65, nulls).slice(off, off + len);
          const vec = out.getChildAt(i)!;
          expect(typeSignature(vec.type)).toBe(typeSignature(arrowTypeFor(dt)));
          expect(diffValues(rawValues(vec), want), dt).toBeNull();
          expect(vec.nullCount, dt).toBe(want.filter((v) => v === null).length);
        });
      });
    }
  }

  it("slice of a slice (offsets add up: 3 + 5)", () => {
    const df = fromArrow(makeArrowTable(65, "some", dts));
    const out = df.slice(3, 30).slice(5, 10).toArrow();
    dts.forEach((dt, i) => {
      expect(diffValues(rawValues(out.getChildAt(i)!), rawColumn(dt, 65, "some").slice(8, 18)), dt).toBeNull();
    });
  });

  it("toRecords and getColumn().toArray() of a slice", () => {
    const df = fromArrow(makeArrowTable(65, "some", dts, { dateSafe: true }));
    const s = df.slice(3, 30);
    const recs = s.toRecords();
    expect(recs.length).toBe(30);
    for (const dt of dts) {
      const want = expectedJs(dt, 65, "some").slice(3, 33);
      expect(diffValues(recs.map((r) => r[dt]), want), dt).toBeNull();
      expect(diffValues(s.getColumn(dt).toArray(), want), dt).toBeNull();
    }
  });
});

describe("head / tail / slice across the length matrix, every dtype", () => {
  for (const n of LENGTHS) {
    it(`length ${n}: slice(3, n), head(n - 2), tail(n - 3), slice(-min(5, n)) keep exact values`, { timeout: 120_000 }, () => {
      const df = fromArrow(makeArrowTable(n, "some"));
      const want = Object.fromEntries(ALL_DTYPES.map((dt) => [dt, rawColumn(dt, n, "some")]));
      const cases: [string, DataFrame, number, number][] = [
        ["slice(3, n)", df.slice(3, n), Math.min(3, n), n],
        ["head(n - 2)", df.head(Math.max(0, n - 2)), 0, Math.max(0, n - 2)],
        ["tail(n - 3)", df.tail(Math.max(0, n - 3)), Math.min(3, n), n],
        ["slice(-min(5, n))", df.slice(-Math.min(5, n)), Math.max(0, n - 5), n],
      ];
      for (const [what, part, lo, hi] of cases) {
        expect(part.shape, what).toEqual([hi - lo, ALL_DTYPES.length]);
        const out = part.toArrow();
        ALL_DTYPES.forEach((dt, i) => {
          const vec = out.getChildAt(i)!;
          const exp = want[dt]!.slice(lo, hi);
          expect(diffValues(rawValues(vec), exp), `${what} ${dt}`).toBeNull();
          expect(vec.nullCount, `${what} ${dt} nullCount`).toBe(exp.filter((v) => v === null).length);
          expect(part.getColumn(dt).nullCount, `${what} ${dt} Series.nullCount`).toBe(exp.filter((v) => v === null).length);
        });
      }
    });
  }
});

describe("toRecords", () => {
  it("exact JS values per dtype (bigint for 64-bit ints, Date for temporal, null for nulls)", () => {
    const df = fromArrow(makeArrowTable(65, "some", ALL_DTYPES, { dateSafe: true }));
    const recs = df.toRecords();
    expect(recs.length).toBe(65);
    expect(Object.keys(recs[0]!)).toEqual([...ALL_DTYPES]);
    for (const dt of ALL_DTYPES) {
      expect(diffValues(recs.map((r) => r[dt]), expectedJs(dt, 65, "some")), dt).toBeNull();
    }
    const r0 = recs[0]!;
    expect(typeof r0.int64).toBe("bigint");
    expect(typeof r0.uint64).toBe("bigint");
    expect(typeof r0.int32).toBe("number");
    expect(typeof r0.uint32).toBe("number");
    expect(typeof r0.bool).toBe("boolean");
    expect(typeof r0.utf8).toBe("string");
    expect(typeof r0.large_utf8).toBe("string");
    for (const dt of ["date32", "timestamp[s]", "timestamp[ms]", "timestamp[us]", "timestamp[ns]"]) {
      expect(r0[dt]).toBeInstanceOf(Date);
    }
    expect(recs[1]!.int8).toBeNull();
    expect(recs[1]!["timestamp[ns]"]).toBeNull();
  });

  it("sub-millisecond timestamps are truncated to the millisecond", () => {
    const df = fromArrow(makeArrowTable(5, "none", ["timestamp[us]", "timestamp[ns]"], { dateSafe: true }));
    // Row 3: 1_700_000_000_123_456 us and 1_700_000_000_123_456_789 ns.
    const r = df.toRecords()[3]!;
    expect((r["timestamp[us]"] as Date).getTime()).toBe(1_700_000_000_123);
    expect((r["timestamp[ns]"] as Date).getTime()).toBe(1_700_000_000_123);
    // Rows 1 and 2: 1 and 999 us / 1 and 999_999 ns are all within the first millisecond.
    expect((df.toRecords()[2]!["timestamp[us]"] as Date).getTime()).toBe(0);
    expect((df.toRecords()[2]!["timestamp[ns]"] as Date).getTime()).toBe(0);
  });

  it("NaN, ±Infinity and -0 come back as numbers, not nulls", () => {
    const df = fromArrow(makeArrowTable(7, "none", ["float32", "float64"]));
    const recs = df.toRecords();
    const want: Raw[] = rawColumn("float64", 7, "none");
    expect(diffValues(recs.map((r) => r.float64), want)).toBeNull();
    expect(diffValues(recs.map((r) => r.float32), rawColumn("float32", 7, "none"))).toBeNull();
  });

  it('columns named "__proto__" / "constructor" appear as own keys of every record', () => {
    const df = new DataFrame({ a: [1, 2] }).withColumn(new Series("__proto__", ["x", "y"])).withColumn(new Series("constructor", [true, null]));
    expect(df.columns).toEqual(["a", "__proto__", "constructor"]);
    const recs = df.toRecords();
    expect(Object.keys(recs[0]!)).toEqual(["a", "__proto__", "constructor"]);
    expect(Object.getOwnPropertyDescriptor(recs[1]!, "__proto__")?.value).toBe("y");
    expect(Object.getOwnPropertyDescriptor(recs[1]!, "constructor")?.value).toBeNull();
    expect(Object.keys(df.schema)).toEqual(["a", "__proto__", "constructor"]);
  });

  it("a height-0 frame gives []; a width-0 frame gives []", () => {
    expect(frame().head(0).toRecords()).toEqual([]);
    expect(new DataFrame().toRecords()).toEqual([]);
  });
});

describe("immutability", () => {
  it("no verb changes the frame it was called on", () => {
    const df = frame();
    const before = contents(df);
    const verbs: (() => unknown)[] = [
      () => df.select("c", "a"),
      () => df.drop("b"),
      () => df.rename({ a: "z" }),
      () => df.withColumn(new Series("a", C.map(String))),
      () => df.withColumn(new Series("d", A)),
      () => df.head(2),
      () => df.tail(2),
      () => df.slice(3, 4),
      () => df.getColumn("a").rename("q"),
      () => df.toArrow(),
      () => df.toRecords(),
      () => df.toString(),
    ];
    for (const v of verbs) v();
    expect(df.shape).toEqual([10, 3]);
    expect(df.columns).toEqual(["a", "b", "c"]);
    expect(df.dtypes).toEqual(["float64", "utf8", "int32"]);
    expect(contents(df)).toEqual(before);
  });

  it("mutating a toRecords() result or a toArray() result does not change the frame", () => {
    const df = frame();
    const recs = df.toRecords();
    recs[0]!.a = 999;
    const arr = df.getColumn("c").toArray();
    arr[0] = -5;
    expect(df.getColumn("a").toArray()[0]).toBe(1);
    expect(df.getColumn("c").toArray()[0]).toBe(10);
  });

  it("the source JS arrays and arrow tables are not changed", () => {
    const a = [1, 2, 3];
    const df = new DataFrame({ a });
    df.head(1);
    expect(a).toEqual([1, 2, 3]);
    const t = makeArrowTable(33, "some", ["bool", "utf8"]);
    fromArrow(t).slice(3, 10).toArrow();
    expect(diffValues(rawValues(t.getChild("bool")!), rawColumn("bool", 33, "some"))).toBeNull();
  });
});

describe("printing", () => {
  it('util.inspect(df) equals df.toString() and starts with "shape: (h, w)"', () => {
    const df = frame();
    const s = df.toString();
    expect(typeof s).toBe("string");
    expect(s.startsWith("shape: (10, 3)")).toBe(true);
    expect(inspect(df)).toBe(s);
  });

  it("shape line of other frames", () => {
    expect(new DataFrame().toString().startsWith("shape: (0, 0)")).toBe(true);
    expect(frame().head(0).toString().startsWith("shape: (0, 3)")).toBe(true);
    const big = fromArrow(makeArrowTable(65, "some"));
    expect(big.toString().startsWith(`shape: (65, ${ALL_DTYPES.length})`)).toBe(true);
    expect(inspect(big)).toBe(big.toString());
  });
});
