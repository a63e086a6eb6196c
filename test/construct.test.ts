import { describe, expect, it } from "vitest";
import { DataFrame, DtypeError, GpudfError, InvalidArgumentError, Series } from "../src/index.js";
import type { DType } from "../src/index.js";
import {
  I64_MAX,
  I64_MIN,
  LONG_STRING,
  NON_ASCII,
  SMALL_LENGTHS,
  U64_MAX,
  arrowTypeFor,
  diffValues,
  rawColumn,
  rawValues,
  typeSignature,
} from "./helpers.js";

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

function expectError(fn: () => unknown, cls: abstract new (...a: never[]) => GpudfError, code: string): void {
  const err = thrown(fn);
  expect(err, "expected a throw").toBeDefined();
  expect(err).toBeInstanceOf(cls);
  expect(err).toBeInstanceOf(GpudfError);
  expect((err as GpudfError).code).toBe(code);
}

describe("new DataFrame: inference from JS arrays", () => {
  it("number -> float64, bigint -> int64, string -> utf8, boolean -> bool, Date -> timestamp[ms]", () => {
    const d0 = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 123));
    const df = new DataFrame({
      f: [1, 2.5, -3],
      i: [1n, -2n, 3n],
      s: ["a", "héllo", ""],
      b: [true, false, true],
      t: [d0, new Date(0), new Date(-1)],
    });
    expect(df.shape).toEqual([3, 5]);
    expect(df.columns).toEqual(["f", "i", "s", "b", "t"]);
    expect(df.dtypes).toEqual(["float64", "int64", "utf8", "bool", "timestamp[ms]"]);
    expect(df.schema).toEqual({ f: "float64", i: "int64", s: "utf8", b: "bool", t: "timestamp[ms]" });
    const r = df.toRecords();
    expect(r).toEqual([
      { f: 1, i: 1n, s: "a", b: true, t: d0 },
      { f: 2.5, i: -2n, s: "héllo", b: false, t: new Date(0) },
      { f: -3, i: 3n, s: "", b: true, t: new Date(-1) },
    ]);
    expect(typeof r[0]!.i).toBe("bigint");
    expect(r[0]!.t).toBeInstanceOf(Date);
    expect((r[0]!.t as Date).getTime()).toBe(d0.getTime());
  });

  it("integral numbers still infer float64", () => {
    const df = new DataFrame({ a: [1, 2, 3] });
    expect(df.dtypes).toEqual(["float64"]);
  });

  it("null and undefined become nulls for every kind", () => {
    const df = new DataFrame({
      f: [null, 1, undefined],
      i: [2n, null, undefined],
      s: [undefined, "x", null],
      b: [null, undefined, false],
      t: [null, new Date(7), undefined],
    });
    expect(df.dtypes).toEqual(["float64", "int64", "utf8", "bool", "timestamp[ms]"]);
    expect(df.getColumn("f").toArray()).toEqual([null, 1, null]);
    expect(df.getColumn("i").toArray()).toEqual([2n, null, null]);
    expect(df.getColumn("s").toArray()).toEqual([null, "x", null]);
    expect(df.getColumn("b").toArray()).toEqual([null, null, false]);
    expect(df.getColumn("t").toArray()).toEqual([null, new Date(7), null]);
    expect(df.getColumn("f").nullCount).toBe(2);
    expect(df.getColumn("i").nullCount).toBe(2);
    expect(df.getColumn("s").nullCount).toBe(2);
    expect(df.getColumn("b").nullCount).toBe(2);
    expect(df.getColumn("t").nullCount).toBe(2);
  });

  it("an all-null array is float64 of nulls; an empty array is float64 of length 0", () => {
    const df = new DataFrame({ a: [null, null, undefined] });
    expect(df.dtypes).toEqual(["float64"]);
    expect(df.getColumn("a").nullCount).toBe(3);
    expect(df.getColumn("a").toArray()).toEqual([null, null, null]);
    const e = new DataFrame({ a: [] });
    expect(e.shape).toEqual([0, 1]);
    expect(e.dtypes).toEqual(["float64"]);
    expect(e.toRecords()).toEqual([]);
  });

  it("NaN stays a float NaN, not a null; ±Infinity and -0 survive", () => {
    const df = new DataFrame({ a: [NaN, 1, Infinity, -Infinity, -0, null] });
    const s = df.getColumn("a");
    expect(s.nullCount).toBe(1);
    expect(diffValues(s.toArray(), [NaN, 1, Infinity, -Infinity, -0, null])).toBeNull();
  });

  const mixed: [string, unknown[]][] = [
    ["number and string", [1, "a"]],
    ["string and number", ["a", 1]],
    ["number and boolean", [1, true]],
    ["boolean and string", [true, "x"]],
    ["number and bigint", [1, 2n]],
    ["Date and number", [new Date(0), 1]],
    ["mixed after nulls", [null, null, "a", 2]],
  ];
  for (const [what, values] of mixed) {
    it(`mixed kinds (${what}) -> DtypeError`, () => {
      expectError(() => new DataFrame({ a: values as never }), DtypeError, "ERR_DTYPE");
    });
  }

  const others: [string, unknown[]][] = [
    ["plain objects", [{ x: 1 }]],
    ["symbols", [Symbol("s")]],
    ["nested arrays", [[1, 2]]],
    ["functions", [() => 1]],
  ];
  for (const [what, values] of others) {
    it(`unsupported values (${what}) -> DtypeError`, () => {
      expectError(() => new DataFrame({ a: values as never }), DtypeError, "ERR_DTYPE");
    });
  }

  it("columns of different lengths -> InvalidArgumentError", () => {
    expectError(() => new DataFrame({ a: [1, 2, 3], b: [1, 2] }), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    expectError(() => new DataFrame({ a: new Int32Array(2), b: ["x"] }), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    expectError(() => new DataFrame({ a: [], b: [1] }), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
  });

  it("new DataFrame() and new DataFrame({}) are 0x0", () => {
    for (const df of [new DataFrame(), new DataFrame({})]) {
      expect(df.shape).toEqual([0, 0]);
      expect(df.height).toBe(0);
      expect(df.width).toBe(0);
      expect(df.columns).toEqual([]);
      expect(df.dtypes).toEqual([]);
      expect(df.toRecords()).toEqual([]);
      expect(df.toArrow().numCols).toBe(0);
      expect(df.toArrow().numRows).toBe(0);
    }
  });

  for (const n of SMALL_LENGTHS) {
    it(`length ${n}: every inferred kind keeps values and nulls`, () => {
      const f = Array.from({ length: n }, (_, i) => (i % 3 === 1 ? null : i * 0.5 - 3));
      const b = Array.from({ length: n }, (_, i) => (i % 3 === 1 ? null : i % 2 === 0));
      const s = Array.from({ length: n }, (_, i) => (i % 3 === 1 ? null : NON_ASCII[i % NON_ASCII.length]! + i));
      const g = Array.from({ length: n }, (_, i) => (i % 3 === 1 ? null : BigInt(i) * 2n ** 40n - 7n));
      const df = new DataFrame({ f, b, s, g });
      expect(df.shape).toEqual([n, 4]);
      expect(diffValues(df.getColumn("f").toArray(), f)).toBeNull();
      expect(diffValues(df.getColumn("b").toArray(), b)).toBeNull();
      expect(diffValues(df.getColumn("s").toArray(), s)).toBeNull();
      expect(diffValues(df.getColumn("g").toArray(), g)).toBeNull();
      expect(df.getColumn("b").nullCount).toBe(b.filter((x) => x === null).length);
    });
  }

  it("a Series value becomes a column named by its key", () => {
    const s = new Series("orig", [1, 2, null], "int32");
    const df = new DataFrame({ x: s, y: ["a", "b", "c"] });
    expect(df.columns).toEqual(["x", "y"]);
    expect(df.dtypes).toEqual(["int32", "utf8"]);
    expect(df.getColumn("x").toArray()).toEqual([1, 2, null]);
    expect(s.name).toBe("orig");
  });
});

describe("new DataFrame: typed arrays keep their type", () => {
  const cases: [string, ArrayLike<number | bigint>, DType, unknown[]][] = [
    ["Int8Array", Int8Array.of(-128, 127, 0), "int8", [-128, 127, 0]],
    ["Int16Array", Int16Array.of(-32768, 32767, 1), "int16", [-32768, 32767, 1]],
    ["Int32Array", Int32Array.of(-2147483648, 2147483647, 2), "int32", [-2147483648, 2147483647, 2]],
    ["BigInt64Array", BigInt64Array.of(I64_MIN, I64_MAX, 0n), "int64", [I64_MIN, I64_MAX, 0n]],
    ["Uint8Array", Uint8Array.of(0, 255, 3), "uint8", [0, 255, 3]],
    ["Uint16Array", Uint16Array.of(0, 65535, 4), "uint16", [0, 65535, 4]],
    ["Uint32Array", Uint32Array.of(0, 4294967295, 5), "uint32", [0, 4294967295, 5]],
    ["BigUint64Array", BigUint64Array.of(0n, U64_MAX, 2n ** 63n), "uint64", [0n, U64_MAX, 2n ** 63n]],
    ["Float32Array", Float32Array.of(1.5, NaN, -Infinity), "float32", [1.5, NaN, -Infinity]],
    ["Float64Array", Float64Array.of(0.1, NaN, Infinity), "float64", [0.1, NaN, Infinity]],
  ];
  for (const [name, arr, dtype, want] of cases) {
    it(`${name} -> ${dtype}`, () => {
      const df = new DataFrame({ a: arr as never });
      expect(df.dtypes).toEqual([dtype]);
      const s = df.getColumn("a");
      expect(s.dtype).toBe(dtype);
      expect(s.nullCount).toBe(0);
      expect(diffValues(s.toArray(), want)).toBeNull();
      expect(new Series("a", arr as never).dtype).toBe(dtype);
    });
  }

  it("typed array views at a byte offset (subarray) read the right elements", () => {
    const base = Float64Array.from({ length: 40 }, (_, i) => i + 0.5);
    const i32 = Int32Array.from({ length: 40 }, (_, i) => i - 20);
    const df = new DataFrame({ f: base.subarray(3, 36), i: i32.subarray(5, 38) });
    expect(df.shape).toEqual([33, 2]);
    expect(df.getColumn("f").toArray()).toEqual(Array.from(base.subarray(3, 36)));
    expect(df.getColumn("i").toArray()).toEqual(Array.from(i32.subarray(5, 38)));
  });

  it("construction leaves the source typed array unchanged", () => {
    const src = Int32Array.of(1, 2, 3);
    const df = new DataFrame({ a: src });
    expect(Array.from(src)).toEqual([1, 2, 3]);
    expect(df.getColumn("a").toArray()).toEqual([1, 2, 3]);
  });

  it("large typed arrays (multi-block)", () => {
    const n = 100_003;
    const a = Float64Array.from({ length: n }, (_, i) => i * 0.25);
    const df = new DataFrame({ a });
    expect(df.height).toBe(n);
    const got = df.getColumn("a").toArray();
    expect(diffValues(got, Array.from(a))).toBeNull();
  });
});

describe("int64 / uint64 extremes", () => {
  it("bigint arrays infer int64 and keep the extremes exactly", () => {
    const vals = [I64_MIN, I64_MAX, -1n, 0n, 2n ** 53n + 1n, null];
    const s = new Series("x", vals);
    expect(s.dtype).toBe("int64");
    expect(s.toArray()).toEqual(vals);
    const df = new DataFrame({ x: vals });
    expect(df.toRecords()[0]!.x).toBe(I64_MIN);
    expect(df.toRecords()[1]!.x).toBe(I64_MAX);
  });

  it("uint64 max via BigUint64Array and via bigint arrays with dtype uint64", () => {
    expect(new Series("u", BigUint64Array.of(U64_MAX, 0n)).toArray()).toEqual([U64_MAX, 0n]);
    const s = new Series("u", [0n, U64_MAX, null, 2n ** 63n], "uint64");
    expect(s.dtype).toBe("uint64");
    expect(s.toArray()).toEqual([0n, U64_MAX, null, 2n ** 63n]);
  });

  it("a bigint outside int64 in an inferred column is a typed error, not a silent wrap", () => {
    const err = thrown(() => new Series("x", [2n ** 63n]));
    expect(err).toBeInstanceOf(GpudfError);
    const err2 = thrown(() => new Series("x", [-(2n ** 63n) - 1n]));
    expect(err2).toBeInstanceOf(GpudfError);
  });
});

describe("Series constructor with an explicit dtype", () => {
  it('new Series("x", [1, 2, null], "int32")', () => {
    const s = new Series("x", [1, 2, null], "int32");
    expect(s.name).toBe("x");
    expect(s.dtype).toBe("int32");
    expect(s.length).toBe(3);
    expect(s.nullCount).toBe(1);
    expect(s.toArray()).toEqual([1, 2, null]);
  });

  const numeric: [DType, number[], unknown[]][] = [
    ["int8", [-128, 127, 0], [-128, 127, 0]],
    ["int16", [-32768, 32767], [-32768, 32767]],
    ["int32", [-2147483648, 2147483647], [-2147483648, 2147483647]],
    ["int64", [-5, 2 ** 53, 0], [-5n, 2n ** 53n, 0n]],
    ["uint8", [0, 255], [0, 255]],
    ["uint16", [0, 65535], [0, 65535]],
    ["uint32", [0, 4294967295], [0, 4294967295]],
    ["uint64", [0, 2 ** 53], [0n, 2n ** 53n]],
    ["float32", [1.5, -0.25, NaN], [1.5, -0.25, NaN]],
    ["float64", [0.1, Infinity, NaN], [0.1, Infinity, NaN]],
  ];
  for (const [dtype, input, want] of numeric) {
    it(`numbers -> ${dtype}`, () => {
      const s = new Series("n", [...input, null], dtype);
      expect(s.dtype).toBe(dtype);
      expect(s.nullCount).toBe(1);
      expect(diffValues(s.toArray(), [...want, null])).toBeNull();
    });
  }

  it("float32 rounds to the nearest float32", () => {
    expect(new Series("f", [0.1], "float32").toArray()).toEqual([Math.fround(0.1)]);
  });

  it("bigints -> int64 with dtype given", () => {
    expect(new Series("i", [I64_MIN, I64_MAX], "int64").toArray()).toEqual([I64_MIN, I64_MAX]);
  });

  it("strings with utf8 and large_utf8; Dates with timestamp[ms]; booleans with bool", () => {
    const u = new Series("s", ["a", "🦀", null], "utf8");
    expect(u.dtype).toBe("utf8");
    expect(u.toArray()).toEqual(["a", "🦀", null]);
    const l = new Series("s", ["日本語", null, ""], "large_utf8");
    expect(l.dtype).toBe("large_utf8");
    expect(l.toArray()).toEqual(["日本語", null, ""]);
    const t = new Series("t", [new Date(1), null], "timestamp[ms]");
    expect(t.dtype).toBe("timestamp[ms]");
    expect(t.toArray()).toEqual([new Date(1), null]);
    const b = new Series("b", [true, null, false], "bool");
    expect(b.dtype).toBe("bool");
    expect(b.toArray()).toEqual([true, null, false]);
  });

  const bad: [string, number[], DType][] = [
    ["non-integral to int32", [1.5], "int32"],
    ["non-integral to int64", [0.5], "int64"],
    ["non-integral to uint8", [2.25], "uint8"],
    ["NaN to int32", [NaN], "int32"],
    ["Infinity to int64", [Infinity], "int64"],
    ["out of range int8 (128)", [128], "int8"],
    ["out of range int8 (-129)", [-129], "int8"],
    ["out of range int16", [40000], "int16"],
    ["out of range int32", [2 ** 31], "int32"],
    ["negative to uint8", [-1], "uint8"],
    ["negative to uint32", [-1], "uint32"],
    ["negative to uint64", [-1], "uint64"],
    ["out of range uint8 (256)", [256], "uint8"],
    ["out of range uint32", [2 ** 32], "uint32"],
  ];
  for (const [what, values, dtype] of bad) {
    it(`${what} -> InvalidArgumentError`, () => {
      expectError(() => new Series("x", [1, ...values], dtype), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    });
  }

  it("an unknown dtype string -> a typed error", () => {
    const err = thrown(() => new Series("x", [1], "float128" as DType));
    expect(err).toBeInstanceOf(GpudfError);
  });
});

describe("Series with an explicit dtype across the length matrix (edge values, some nulls)", () => {
  const dts: DType[] = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "utf8", "large_utf8"];
  for (const dt of dts) {
    it(`${dt}: JS values -> toArray and toArrow exact`, () => {
      for (const n of [...SMALL_LENGTHS, 1000]) {
        const raw = rawColumn(dt, n, "some");
        const s = new Series("v", raw, dt);
        expect(s.dtype).toBe(dt);
        expect(s.length).toBe(n);
        expect(s.nullCount).toBe(raw.filter((v) => v === null).length);
        expect(diffValues(s.toArray(), raw), `${dt} length ${n} toArray`).toBeNull();
        const v = s.toArrow();
        expect(typeSignature(v.type)).toBe(typeSignature(arrowTypeFor(dt)));
        expect(diffValues(rawValues(v), raw), `${dt} length ${n} toArrow`).toBeNull();
      }
    });
  }
});

describe("DataFrame.fromRecords", () => {
  it("columns in order of first appearance; missing keys are null", () => {
    const df = DataFrame.fromRecords([{ a: 1, b: "x" }, { b: "y", c: true }, { d: 5n, a: 3 }]);
    expect(df.columns).toEqual(["a", "b", "c", "d"]);
    expect(df.dtypes).toEqual(["float64", "utf8", "bool", "int64"]);
    expect(df.shape).toEqual([3, 4]);
    expect(df.toRecords()).toEqual([
      { a: 1, b: "x", c: null, d: null },
      { a: null, b: "y", c: true, d: null },
      { a: 3, b: null, c: null, d: 5n },
    ]);
  });

  it("explicit null / undefined values and non-ASCII keys", () => {
    const df = DataFrame.fromRecords([{ "日本": "🦀", v: null }, { "日本": undefined, v: 2 }]);
    expect(df.columns).toEqual(["日本", "v"]);
    expect(df.dtypes).toEqual(["utf8", "float64"]);
    expect(df.toRecords()).toEqual([
      { "日本": "🦀", v: null },
      { "日本": null, v: 2 },
    ]);
  });

  it("Dates infer timestamp[ms]", () => {
    const df = DataFrame.fromRecords([{ t: new Date(86_400_000) }, { t: null }]);
    expect(df.dtypes).toEqual(["timestamp[ms]"]);
    expect(df.toRecords()).toEqual([{ t: new Date(86_400_000) }, { t: null }]);
  });

  it("mixed kinds across rows -> DtypeError", () => {
    expectError(() => DataFrame.fromRecords([{ a: 1 }, { a: "x" }]), DtypeError, "ERR_DTYPE");
  });

  it('keys that are Object.prototype names ("__proto__", "constructor") are ordinary columns', () => {
    const rows = [JSON.parse('{"__proto__": 1, "b": 2}') as Record<string, unknown>, { constructor: 3, b: 4 } as Record<string, unknown>];
    expect(Object.keys(rows[0]!)).toEqual(["__proto__", "b"]);
    const df = DataFrame.fromRecords(rows);
    expect(df.columns).toEqual(["__proto__", "b", "constructor"]);
    expect(df.getColumn("__proto__").toArray()).toEqual([1, null]);
    expect(df.getColumn("constructor").toArray()).toEqual([null, 3]);
  });

  it("no rows -> 0x0 frame", () => {
    expect(DataFrame.fromRecords([]).shape).toEqual([0, 0]);
  });

  it("round trips toRecords of a frame", () => {
    const rows = [
      { a: 1.5, s: "héllo", b: true, i: I64_MIN },
      { a: NaN, s: "", b: null, i: I64_MAX },
    ];
    const df = DataFrame.fromRecords(rows);
    expect(diffValues(df.getColumn("a").toArray(), [1.5, NaN])).toBeNull();
    expect(df.getColumn("s").toArray()).toEqual(["héllo", ""]);
    expect(df.getColumn("b").toArray()).toEqual([true, null]);
    expect(df.getColumn("i").toArray()).toEqual([I64_MIN, I64_MAX]);
  });
});

describe("non-ASCII strings round trip via toArray", () => {
  it("utf8 values with multi-byte code points, empty strings, long strings", () => {
    const vals = ["héllo", "日本語", "🦀", "", LONG_STRING, "a\u0000b", "\u{10FFFF}", null, "Ω≈ç√∫", "👩‍👩‍👧‍👦"];
    const s = new Series("s", vals);
    expect(s.dtype).toBe("utf8");
    expect(s.length).toBe(vals.length);
    expect(s.nullCount).toBe(1);
    expect(s.toArray()).toEqual(vals);
    const df = new DataFrame({ s: vals });
    expect(df.toRecords().map((r) => r.s)).toEqual(vals);
    expect(df.slice(1, 4).getColumn("s").toArray()).toEqual(vals.slice(1, 5));
  });

  it("many strings (multi-block)", () => {
    const n = 100_003;
    const vals = Array.from({ length: n }, (_, i) => (i % 5 === 4 ? null : `${NON_ASCII[i % NON_ASCII.length]}-${i}`));
    const s = new Series("s", vals);
    expect(s.nullCount).toBe(vals.filter((v) => v === null).length);
    expect(diffValues(s.toArray(), vals)).toBeNull();
  });
});
