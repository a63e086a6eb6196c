import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  Binary,
  DataType,
  DateDay,
  DateMillisecond,
  Decimal,
  Dictionary,
  Field,
  Int32,
  List,
  Struct,
  Table,
  TimestampMillisecond,
  Utf8,
  Vector,
  makeData,
  makeVector,
  tableFromIPC,
  tableToIPC,
  vectorFromArray,
} from "apache-arrow";
import { DataFrame, DtypeError, GpudfError, fromArrow } from "../src/index.js";
import type { DType } from "../src/index.js";
import {
  ALL_DTYPES,
  LENGTHS,
  NULL_PATTERNS,
  type NullPattern,
  type Raw,
  arrowTypeFor,
  diffValues,
  makeArrowTable,
  makeArrowVector,
  makeBatchedTable,
  rawColumn,
  rawValues,
  typeSignature,
} from "./helpers.js";

type ArrowInput = Parameters<typeof fromArrow>[0];

/** Expected column of a frame: name, dtype and raw values (null = null). */
interface ColSpec {
  name: string;
  dtype: DType;
  raw: readonly Raw[];
}

function specsFor(dtypes: readonly DType[], length: number, nulls: NullPattern, lo = 0, hi = length): ColSpec[] {
  return dtypes.map((dt) => ({ name: dt, dtype: dt, raw: rawColumn(dt, length, nulls).slice(lo, hi) }));
}

/** Asserts an arrow Table has exactly these columns (names, types, values, validity). */
function expectTable(out: Table, cols: readonly ColSpec[]): void {
  expect(out.numCols).toBe(cols.length);
  expect(out.schema.fields.map((f) => f.name)).toEqual(cols.map((c) => c.name));
  const height = cols.length > 0 ? cols[0]!.raw.length : 0;
  expect(out.numRows).toBe(height);
  cols.forEach((c, i) => {
    const vec = out.getChildAt(i);
    expect(vec, `column ${c.name}`).not.toBeNull();
    expect(typeSignature(out.schema.fields[i]!.type), `schema type of ${c.name}`).toBe(typeSignature(arrowTypeFor(c.dtype)));
    expect(typeSignature(vec!.type), `vector type of ${c.name}`).toBe(typeSignature(arrowTypeFor(c.dtype)));
    expect(vec!.length, `length of ${c.name}`).toBe(height);
    const diff = diffValues(rawValues(vec!), c.raw);
    expect(diff, `values of ${c.name}`).toBeNull();
    expect(vec!.nullCount, `nullCount of ${c.name}`).toBe(c.raw.filter((v) => v === null).length);
  });
}

/** Asserts a frame has exactly these columns (shape, names, dtypes) and that toArrow matches. */
function expectFrame(df: DataFrame, cols: readonly ColSpec[]): void {
  const height = cols.length > 0 ? cols[0]!.raw.length : 0;
  expect(df.shape).toEqual([height, cols.length]);
  expect(df.columns).toEqual(cols.map((c) => c.name));
  expect(df.dtypes).toEqual(cols.map((c) => c.dtype));
  expectTable(df.toArrow(), cols);
}

describe("fromArrow -> toArrow round trip, every dtype", () => {
  for (const n of LENGTHS) {
    for (const nulls of NULL_PATTERNS) {
      it(`length ${n}, nulls ${nulls}`, { timeout: 120_000 }, () => {
        const t = makeArrowTable(n, nulls);
        const df = fromArrow(t);
        expectFrame(df, specsFor(ALL_DTYPES, n, nulls));
        // fromArrow must not have changed its input.
        expect(diffValues(rawValues(t.getChild("int64")!), rawColumn("int64", n, nulls))).toBeNull();
      });
    }
  }

  it("df.dtypes and df.schema name every supported dtype", () => {
    const df = fromArrow(makeArrowTable(3, "some"));
    expect(df.dtypes).toEqual([...ALL_DTYPES]);
    const schema: Record<string, DType> = {};
    for (const dt of ALL_DTYPES) schema[dt] = dt;
    expect(df.schema).toEqual(schema);
  });

  it("toArrow returns an apache-arrow Table of the same arrow copy the user imports", () => {
    const out = fromArrow(makeArrowTable(5, "some")).toArrow();
    expect(out).toBeInstanceOf(Table);
    expect(out.getChildAt(0)).toBeInstanceOf(Vector);
  });

  it("toArrow output survives arrow's own IPC writer and reader (well-formed Data)", () => {
    for (const n of [0, 33, 65]) {
      const out = fromArrow(makeArrowTable(n, "some")).toArrow();
      const back = tableFromIPC(tableToIPC(out));
      expectTable(back, specsFor(ALL_DTYPES, n, "some"));
    }
  });

  it("input read from IPC (buffers at non-zero byte offsets of one ArrayBuffer) round trips", () => {
    for (const nulls of NULL_PATTERNS) {
      const t = tableFromIPC(tableToIPC(makeArrowTable(65, nulls)));
      expectFrame(fromArrow(t), specsFor(ALL_DTYPES, 65, nulls));
    }
  });

  it("empty arrow Table gives a 0x0 frame", () => {
    const df = fromArrow(new Table());
    expect(df.shape).toEqual([0, 0]);
    expect(df.columns).toEqual([]);
    expect(df.toArrow().numCols).toBe(0);
    expect(df.toArrow().numRows).toBe(0);
  });

  it("keeps non-ASCII column names", () => {
    const t = new Table({ "naïve 日本 🦀": makeArrowVector("int32", [1, null, 3]), "": makeArrowVector("utf8", ["x", "🦀", null]) });
    const df = fromArrow(t);
    expect(df.columns).toEqual(["naïve 日本 🦀", ""]);
    expectTable(df.toArrow(), [
      { name: "naïve 日本 🦀", dtype: "int32", raw: [1, null, 3] },
      { name: "", dtype: "utf8", raw: ["x", "🦀", null] },
    ]);
  });
});

describe("fromArrow with several record batches", () => {
  const cases: { n: number; cuts: number[] }[] = [
    { n: 65, cuts: [13, 40] },
    { n: 65, cuts: [1, 2, 33, 64] },
    { n: 40, cuts: [0, 5, 5, 37] }, // includes empty batches
    { n: 100_003, cuts: [3, 50_001, 99_999] },
  ];
  for (const { n, cuts } of cases) {
    for (const nulls of NULL_PATTERNS) {
      it(`length ${n}, batches cut at [${cuts.join(",")}], nulls ${nulls}`, { timeout: 120_000 }, () => {
        const t = makeBatchedTable(cuts, n, nulls);
        expect(t.batches.length).toBe(cuts.length + 1);
        expectFrame(fromArrow(t), specsFor(ALL_DTYPES, n, nulls));
      });
    }
  }

  it("table built by concatenating two tables", () => {
    const a = makeArrowTable(33, "some");
    const b = new Table(
      Object.fromEntries(ALL_DTYPES.map((dt) => [dt, makeArrowVector(dt, rawColumn(dt, 65, "some").slice(33))])),
    );
    const t = a.concat(b);
    expect(t.batches.length).toBe(2);
    expectFrame(fromArrow(t), specsFor(ALL_DTYPES, 65, "some"));
  });
});

describe("fromArrow with sliced tables (offsets not a multiple of 8)", () => {
  const ranges: [number, number][] = [
    [3, 40],
    [5, 65],
    [1, 2],
    [61, 65],
    [7, 7],
    [9, 42],
  ];
  for (const nulls of NULL_PATTERNS) {
    for (const [lo, hi] of ranges) {
      it(`table.slice(${lo}, ${hi}) of 65 rows, nulls ${nulls}`, () => {
        const t = makeArrowTable(65, nulls).slice(lo, hi);
        expectFrame(fromArrow(t), specsFor(ALL_DTYPES, 65, nulls, lo, hi));
      });
    }
  }

  it("slice across record batch boundaries of a batched table", () => {
    const t = makeBatchedTable([13, 40], 65, "some").slice(11, 60);
    expectFrame(fromArrow(t), specsFor(ALL_DTYPES, 65, "some", 11, 60));
  });

  it("slice of a multi-block table", { timeout: 60_000 }, () => {
    const dts: DType[] = ["bool", "int32", "int64", "utf8", "large_utf8", "timestamp[ns]", "float64"];
    const t = makeArrowTable(100_003, "some", dts).slice(33_333, 100_000);
    expectFrame(fromArrow(t), specsFor(dts, 100_003, "some", 33_333, 100_000));
  });

  it("sliced vectors put into a new Table (per-column Data with offset)", () => {
    const dts: DType[] = ["bool", "int8", "uint64", "utf8", "large_utf8", "timestamp[us]", "date32"];
    const cols: Record<string, Vector> = {};
    for (const dt of dts) cols[dt] = makeArrowVector(dt, rawColumn(dt, 100, "some")).slice(3, 70);
    expectFrame(fromArrow(new Table(cols)), specsFor(dts, 100, "some", 3, 70));
  });
});

describe("fromArrow type mapping", () => {
  it("dictionary-encoded utf8 decodes to utf8", () => {
    const values = ["a", "b", null, "a", "日本語", "🦀", null, "b", ""];
    const vec = vectorFromArray(values, new Dictionary(new Utf8(), new Int32()));
    const df = fromArrow(new Table({ d: vec }));
    expect(df.dtypes).toEqual(["utf8"]);
    expect(df.getColumn("d").toArray()).toEqual(values);
    expectTable(df.toArrow(), [{ name: "d", dtype: "utf8", raw: values }]);
  });

  it("sliced dictionary-encoded column decodes the right rows", () => {
    const values = ["a", "b", null, "a", "日本語", "🦀", null, "b", "", "c", "a", "héllo"];
    const vec = vectorFromArray(values, new Dictionary(new Utf8(), new Int32())).slice(3, 11);
    const df = fromArrow(new Table({ d: vec }));
    expect(df.dtypes).toEqual(["utf8"]);
    expectTable(df.toArrow(), [{ name: "d", dtype: "utf8", raw: values.slice(3, 11) }]);
  });

  it("DateMillisecond (date64) becomes timestamp[ms]", () => {
    const raw: Raw[] = [0n, 86_400_000n, null, -86_400_000n, 1_700_006_400_000n];
    const valid = raw.map((v) => v !== null);
    const bitmap = new Uint8Array(8);
    valid.forEach((v, i) => {
      if (v) bitmap[i >> 3]! |= 1 << (i & 7);
    });
    const data = makeData({
      type: new DateMillisecond(),
      length: raw.length,
      nullCount: 1,
      nullBitmap: bitmap,
      data: BigInt64Array.from(raw, (v) => (v === null ? 123n : (v as bigint))),
    });
    const df = fromArrow(new Table({ d: makeVector(data) }));
    expect(df.dtypes).toEqual(["timestamp[ms]"]);
    expectTable(df.toArrow(), [{ name: "d", dtype: "timestamp[ms]", raw }]);
    expect(df.getColumn("d").toArray()).toEqual([new Date(0), new Date(86_400_000), null, new Date(-86_400_000), new Date(1_700_006_400_000)]);
  });

  it("DateDay is date32 and TimestampMillisecond is timestamp[ms]", () => {
    const df = fromArrow(
      new Table({ a: makeVector(makeData({ type: new DateDay(), length: 1, data: Int32Array.of(1) })), b: vectorFromArray([new Date(5)], new TimestampMillisecond()) }),
    );
    expect(df.dtypes).toEqual(["date32", "timestamp[ms]"]);
  });

  const unsupported: [string, () => Vector][] = [
    ["List<Int32>", () => vectorFromArray([[1, 2], [3], null], new List(new Field("item", new Int32(), true)))],
    ["Struct", () => vectorFromArray([{ a: 1 }, { a: 2 }], new Struct([new Field("a", new Int32(), true)]))],
    ["Decimal128", () => makeVector(makeData({ type: new Decimal(2, 10, 128), length: 2, data: new Uint32Array(8) }))],
    ["Binary", () => vectorFromArray([new Uint8Array([1, 2]), new Uint8Array([3])], new Binary())],
  ];
  for (const [name, make] of unsupported) {
    it(`unsupported ${name} column throws DtypeError (ERR_DTYPE)`, () => {
      const t = new Table({ ok: makeArrowVector("int32", [1, 2]), bad: make().slice(0, 2) });
      let err: unknown;
      try {
        fromArrow(t);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DtypeError);
      expect(err).toBeInstanceOf(GpudfError);
      expect((err as DtypeError).code).toBe("ERR_DTYPE");
    });
  }
});

describe("fromArrow duck typing (tables from another copy of apache-arrow)", () => {
  it("accepts a plain wrapper exposing only schema, getChildAt, numRows, numCols", () => {
    const real = makeArrowTable(65, "some");
    const wrapper = {
      schema: real.schema,
      getChildAt: (i: number) => real.getChildAt(i),
      numRows: real.numRows,
      numCols: real.numCols,
    };
    expect(wrapper instanceof Table).toBe(false);
    const df = fromArrow(wrapper as unknown as ArrowInput);
    expectFrame(df, specsFor(ALL_DTYPES, 65, "some"));
  });

  it("accepts a wrapper over a sliced, batched table", () => {
    const real = makeBatchedTable([13, 40], 65, "some").slice(3, 50);
    const wrapper = {
      schema: real.schema,
      getChildAt: (i: number) => real.getChildAt(i),
      numRows: real.numRows,
      numCols: real.numCols,
    };
    expectFrame(fromArrow(wrapper as unknown as ArrowInput), specsFor(ALL_DTYPES, 65, "some", 3, 50));
  });

  it("accepts a Table made by the CommonJS copy of apache-arrow (different classes)", () => {
    const require = createRequire(import.meta.url);
    const cjs = require("apache-arrow") as { tableFromIPC: (b: Uint8Array) => unknown; Table: unknown; DataType: unknown };
    for (const nulls of NULL_PATTERNS) {
      const foreign = cjs.tableFromIPC(tableToIPC(makeArrowTable(65, nulls)));
      // The simulation only holds if the classes really differ.
      // (arrow 21 makes `instanceof Table` duck-typed, so compare the constructors.)
      expect((foreign as { constructor: unknown }).constructor).not.toBe(Table);
      expect((foreign as { schema: { fields: { type: unknown }[] } }).schema.fields[0]!.type instanceof DataType).toBe(false);
      const df = fromArrow(foreign as ArrowInput);
      expectFrame(df, specsFor(ALL_DTYPES, 65, nulls));
    }
  });

  it("accepts a sliced Table from the CommonJS copy", () => {
    const require = createRequire(import.meta.url);
    const cjs = require("apache-arrow") as { tableFromIPC: (b: Uint8Array) => { slice(a: number, b: number): unknown } };
    const foreign = cjs.tableFromIPC(tableToIPC(makeArrowTable(65, "some"))).slice(3, 40);
    expectFrame(fromArrow(foreign as ArrowInput), specsFor(ALL_DTYPES, 65, "some", 3, 40));
  });
});

describe("Series.toArrow", () => {
  for (const dt of ALL_DTYPES) {
    it(`${dt}: vector type, values and validity (sliced frame)`, () => {
      const df = fromArrow(makeArrowTable(65, "some", [dt]));
      const s = df.slice(3, 40).getColumn(dt);
      const v = s.toArrow();
      expect(v).toBeInstanceOf(Vector);
      expect(typeSignature(v.type)).toBe(typeSignature(arrowTypeFor(dt)));
      expect(v.length).toBe(40);
      expect(diffValues(rawValues(v), rawColumn(dt, 65, "some").slice(3, 43))).toBeNull();
      expect(v.nullCount).toBe(rawColumn(dt, 65, "some").slice(3, 43).filter((x) => x === null).length);
    });
  }
});
