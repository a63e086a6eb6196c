import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { DataFrame, GpudfError, InvalidArgumentError, Series, fromArrow } from "../src/index.js";
import {
  ALL_DTYPES,
  NULL_PATTERNS,
  SMALL_LENGTHS,
  arrowTypeFor,
  diffValues,
  expectedJs,
  isValidAt,
  makeArrowTable,
  rawColumn,
  rawValues,
  typeSignature,
} from "./helpers.js";

function nullsIn(pattern: (typeof NULL_PATTERNS)[number], lo: number, hi: number): number {
  let n = 0;
  for (let i = lo; i < hi; i++) if (!isValidAt(pattern, i)) n++;
  return n;
}

function expectInvalid(fn: () => unknown): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(InvalidArgumentError);
  expect(err).toBeInstanceOf(GpudfError);
  expect((err as GpudfError).code).toBe("ERR_INVALID_ARGUMENT");
}

describe("Series basics", () => {
  it("name, dtype, length, nullCount", () => {
    const s = new Series("x", [1.5, null, 3, NaN]);
    expect(s.name).toBe("x");
    expect(s.dtype).toBe("float64");
    expect(s.length).toBe(4);
    expect(s.nullCount).toBe(1);
  });

  it("empty series", () => {
    const s = new Series("e", []);
    expect(s.length).toBe(0);
    expect(s.nullCount).toBe(0);
    expect(s.dtype).toBe("float64");
    expect(s.toArray()).toEqual([]);
    expect(s.toArrow().length).toBe(0);
  });

  for (const dt of ALL_DTYPES) {
    for (const nulls of NULL_PATTERNS) {
      it(`${dt}, 65 rows, nulls ${nulls}: metadata and toArray`, () => {
        const s = fromArrow(makeArrowTable(65, nulls, [dt], { dateSafe: true })).getColumn(dt);
        expect(s.name).toBe(dt);
        expect(s.dtype).toBe(dt);
        expect(s.length).toBe(65);
        expect(s.nullCount).toBe(nullsIn(nulls, 0, 65));
        expect(diffValues(s.toArray(), expectedJs(dt, 65, nulls))).toBeNull();
      });
    }
  }

  for (const n of SMALL_LENGTHS) {
    it(`length ${n}: toArray for bool, int64, utf8 with some nulls`, () => {
      const df = fromArrow(makeArrowTable(n, "some", ["bool", "int64", "utf8"], { dateSafe: true }));
      for (const dt of ["bool", "int64", "utf8"] as const) {
        const s = df.getColumn(dt);
        expect(s.length).toBe(n);
        expect(s.nullCount).toBe(nullsIn("some", 0, n));
        expect(diffValues(s.toArray(), expectedJs(dt, n, "some")), dt).toBeNull();
      }
    });
  }

  it("multi-block column toArray", { timeout: 60_000 }, () => {
    const n = 100_003;
    const df = fromArrow(makeArrowTable(n, "some", ["float64", "uint64", "large_utf8", "timestamp[us]"], { dateSafe: true }));
    for (const dt of ["float64", "uint64", "large_utf8", "timestamp[us]"] as const) {
      const s = df.getColumn(dt);
      expect(s.nullCount).toBe(nullsIn("some", 0, n));
      expect(diffValues(s.toArray(), expectedJs(dt, n, "some")), dt).toBeNull();
    }
  });

  it("toArray value types per dtype", () => {
    const df = fromArrow(makeArrowTable(1, "none", ALL_DTYPES, { dateSafe: true }));
    const kinds: Record<string, string> = {};
    for (const dt of ALL_DTYPES) {
      const v = df.getColumn(dt).toArray()[0];
      kinds[dt] = v instanceof Date ? "Date" : typeof v;
    }
    expect(kinds).toEqual({
      bool: "boolean",
      int8: "number",
      int16: "number",
      int32: "number",
      int64: "bigint",
      uint8: "number",
      uint16: "number",
      uint32: "number",
      uint64: "bigint",
      float32: "number",
      float64: "number",
      utf8: "string",
      large_utf8: "string",
      date32: "Date",
      "timestamp[s]": "Date",
      "timestamp[ms]": "Date",
      "timestamp[us]": "Date",
      "timestamp[ns]": "Date",
      "duration[s]": "bigint",
      "duration[ms]": "bigint",
      "duration[us]": "bigint",
      "duration[ns]": "bigint",
    });
  });

  it("toArray returns a plain JS array", () => {
    const a = new Series("x", Int32Array.of(1, 2)).toArray();
    expect(Array.isArray(a)).toBe(true);
    expect(a).toEqual([1, 2]);
  });
});

describe("Series.rename", () => {
  it("returns a new Series with the same data; the original keeps its name", () => {
    const s = new Series("x", ["a", null, "🦀"]);
    const r = s.rename("y");
    expect(r).toBeInstanceOf(Series);
    expect(r).not.toBe(s);
    expect(r.name).toBe("y");
    expect(r.dtype).toBe("utf8");
    expect(r.toArray()).toEqual(["a", null, "🦀"]);
    expect(r.nullCount).toBe(1);
    expect(s.name).toBe("x");
    expect(s.toArray()).toEqual(["a", null, "🦀"]);
  });
});

describe("Series.slice / head / tail", () => {
  const vals = Array.from({ length: 65 }, (_, i) => (i % 3 === 1 ? null : i));
  const mk = () => new Series("v", vals, "int32");

  it("slice(offset, length) and negative offsets", () => {
    const s = mk();
    expect(s.slice(3, 30).toArray()).toEqual(vals.slice(3, 33));
    expect(s.slice(60).toArray()).toEqual(vals.slice(60));
    expect(s.slice(-4).toArray()).toEqual(vals.slice(61));
    expect(s.slice(-4, 2).toArray()).toEqual(vals.slice(61, 63));
    expect(s.slice(60, 100).toArray()).toEqual(vals.slice(60));
    expect(s.slice(65).length).toBe(0);
    expect(s.slice(100).length).toBe(0);
    expect(s.slice(5, 0).length).toBe(0);
    expect(s.slice(3, 30).name).toBe("v");
    expect(s.slice(3, 30).dtype).toBe("int32");
  });

  it("head / tail with defaults, n = 0, n > length", () => {
    const s = mk();
    expect(s.head().toArray()).toEqual(vals.slice(0, 5));
    expect(s.tail().toArray()).toEqual(vals.slice(60));
    expect(s.head(7).toArray()).toEqual(vals.slice(0, 7));
    expect(s.tail(7).toArray()).toEqual(vals.slice(58));
    expect(s.head(0).length).toBe(0);
    expect(s.tail(0).length).toBe(0);
    expect(s.head(1000).toArray()).toEqual(vals);
    expect(s.tail(1000).toArray()).toEqual(vals);
  });

  it("invalid arguments -> InvalidArgumentError", () => {
    expectInvalid(() => mk().head(-1));
    expectInvalid(() => mk().tail(-2));
    expectInvalid(() => mk().slice(0, -1));
  });

  it("nullCount of a slice counts only the nulls inside it", () => {
    const s = mk();
    for (const [lo, len] of [
      [3, 30],
      [1, 1],
      [2, 1],
      [0, 65],
      [9, 56],
      [64, 1],
      [10, 0],
    ] as [number, number][]) {
      const sl = s.slice(lo, len);
      expect(sl.length).toBe(len);
      expect(sl.nullCount, `slice(${lo}, ${len})`).toBe(nullsIn("some", lo, lo + len));
    }
    expect(s.head(2).nullCount).toBe(1);
    expect(s.tail(3).nullCount).toBe(nullsIn("some", 62, 65));
  });

  for (const dt of ["bool", "utf8", "timestamp[ms]", "uint8"] as const) {
    it(`${dt}: nullCount and values of slices of a sliced frame column`, () => {
      const col = fromArrow(makeArrowTable(100, "some", [dt], { dateSafe: true })).slice(3, 90).getColumn(dt);
      const sl = col.slice(5, 33);
      expect(sl.nullCount).toBe(nullsIn("some", 8, 41));
      expect(diffValues(sl.toArray(), expectedJs(dt, 100, "some").slice(8, 41))).toBeNull();
    });
  }

  it("the original series is unchanged by slicing", () => {
    const s = mk();
    s.slice(3, 4);
    s.head(2);
    s.tail(2);
    expect(s.length).toBe(65);
    expect(s.toArray()).toEqual(vals);
  });
});

describe("Series.toArrow", () => {
  for (const dt of ALL_DTYPES) {
    it(`${dt}: arrow type, values and validity`, () => {
      const s = fromArrow(makeArrowTable(33, "some", [dt])).getColumn(dt);
      const v = s.toArrow();
      expect(typeSignature(v.type)).toBe(typeSignature(arrowTypeFor(dt)));
      expect(v.length).toBe(33);
      expect(v.nullCount).toBe(nullsIn("some", 0, 33));
      expect(diffValues(rawValues(v), rawColumn(dt, 33, "some"))).toBeNull();
    });
  }

  it("a Series built from JS values", () => {
    const v = new Series("x", [1n, null, -(2n ** 63n)]).toArrow();
    expect(typeSignature(v.type)).toBe(typeSignature(arrowTypeFor("int64")));
    expect(rawValues(v)).toEqual([1n, null, -(2n ** 63n)]);
  });
});

describe("Series printing", () => {
  it('toString starts with "shape: (n,)" and util.inspect matches it', () => {
    const s = new Series("x", [1, 2, null]);
    expect(s.toString().startsWith("shape: (3,)")).toBe(true);
    expect(inspect(s)).toBe(s.toString());
    const e = new Series("e", []);
    expect(e.toString().startsWith("shape: (0,)")).toBe(true);
  });

  it("a column of a frame prints its own length", () => {
    const df = new DataFrame({ a: Array.from({ length: 65 }, (_, i) => i) });
    expect(df.getColumn("a").toString().startsWith("shape: (65,)")).toBe(true);
    expect(df.getColumn("a").slice(3, 30).toString().startsWith("shape: (30,)")).toBe(true);
  });
});
