/**
 * The native Parquet writer: exact round trips through readParquet for every dtype, null
 * pattern, compression and row-group split; DuckDB reading our files with the right types and
 * values; typed errors for bad options and unwritable paths.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, describe, expect, it } from "vitest";

import { DataFrame, Series, fromArrow, readParquet, type BaseDType, type DType } from "../src/index.js";
import { Table } from "apache-arrow";

import {
  ALL_DTYPES,
  NULL_PATTERNS,
  diffValues,
  expectSameFrame,
  isValidAt,
  makeArrowTable,
  makeArrowVector,
  rawValues,
  valueAt,
  type Raw,
} from "./helpers.js";
import { duckdbConnection, duckdbRows } from "./support/duckdb.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = mkdtempSync(join(tmpdir(), "gpudf-parquet-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;
const tmp = (): string => join(dir, `f${fileNo++}.parquet`);

const COMPRESSIONS = ["zstd", "snappy", "none"] as const;

describe("writeParquet round trips through readParquet", () => {
  for (const nulls of NULL_PATTERNS) {
    for (const compression of COMPRESSIONS) {
      it(`every dtype, nulls ${nulls}, ${compression}, one and many row groups`, async () => {
        const df = fromArrow(makeArrowTable(1000, nulls));
        for (const rowGroupSize of [undefined, 1, 333]) {
          const path = tmp();
          await df.writeParquet(path, rowGroupSize === undefined ? { compression } : { compression, rowGroupSize });
          const back = await readParquet(path);
          expectSameFrame(back, df);
          back.dispose();
        }
        df.dispose();
      });
    }
  }

  it("an empty frame (0 rows) keeps its schema, with every compression", async () => {
    const empty = fromArrow(makeArrowTable(0, "none"));
    for (const compression of COMPRESSIONS) {
      const path = tmp();
      await empty.writeParquet(path, { compression });
      const back = await readParquet(path);
      expect(back.shape).toEqual([0, ALL_DTYPES.length]);
      expect(back.dtypes).toEqual(empty.dtypes);
    }
  });

  it("a sliced frame writes only its rows (bitmaps read from an unaligned offset)", async () => {
    const part = fromArrow(makeArrowTable(300, "some")).slice(13, 171);
    for (const compression of COMPRESSIONS) {
      const path = tmp();
      await part.writeParquet(path, { compression, rowGroupSize: 50 });
      expectSameFrame(await readParquet(path), part);
    }
  });

  it("many pages per chunk and a short last row group", async () => {
    const dtypes: DType[] = ["int32", "float64", "utf8", "bool", "timestamp[ms]"];
    // dateSafe: DuckDB's statistics reader rejects int64-extreme timestamps.
    const df = fromArrow(makeArrowTable(300_000, "some", dtypes, { dateSafe: true }));
    const path = tmp();
    // float64 pages hold 131072 rows: 2 pages in the first row group, 1 in the second.
    await df.writeParquet(path, { rowGroupSize: 200_000, compression: "snappy" });
    expectSameFrame(await readParquet(path), df);
    const conn = await duckdbConnection();
    const groups = await duckdbRows(conn, `SELECT row_group_id, row_group_num_rows FROM parquet_metadata('${path}') WHERE column_id = 0 ORDER BY 1`);
    expect(groups).toEqual([
      { row_group_id: 0n, row_group_num_rows: 200_000n },
      { row_group_id: 1n, row_group_num_rows: 100_000n },
    ]);
    conn.closeSync();
  });

  it("unicode and empty strings, utf8 and large_utf8", async () => {
    const values = ["", "héllo", "日本語", "🦀", null, "", "a\u0000b", "Ünïcödé ✓ 🦀🦀"];
    const df = new DataFrame({
      s: new Series("s", values, "utf8"),
      l: new Series("l", values, "large_utf8"),
    });
    for (const compression of COMPRESSIONS) {
      const path = tmp();
      await df.writeParquet(path, { compression });
      const back = await readParquet(path);
      expect(back.dtypes).toEqual(["utf8", "large_utf8"]);
      expect(back.toRecords()).toEqual(df.toRecords());
    }
  });

  it("repeated strings are dictionary-encoded: nulls, runs, wide indices, several pages", async () => {
    const n = 200_000;
    const df = new DataFrame({
      wide: new Series("wide", Array.from({ length: n }, (_, i) => `k${(i * 7919) % 20000}`), "utf8"),
      runs: new Series("runs", Array.from({ length: n }, (_, i) => `r${Math.floor(i / 1000)}`), "large_utf8"),
      nulls: new Series("nulls", Array.from({ length: n }, (_, i) => (i % 5 === 2 ? null : `x${i % 9}`)), "utf8"),
      one: new Series("one", Array.from({ length: n }, () => "same"), "utf8"),
    });
    for (const compression of COMPRESSIONS) {
      const path = tmp();
      await df.writeParquet(path, { compression, rowGroupSize: 150_000 });
      expectSameFrame(await readParquet(path), df);
      const conn = await duckdbConnection();
      const meta = await duckdbRows(conn, `SELECT DISTINCT encodings FROM parquet_metadata('${path}')`);
      expect(meta).toEqual([{ encodings: "PLAIN, RLE, RLE_DICTIONARY" }]);
      const counts = await duckdbRows(
        conn,
        `SELECT count(DISTINCT wide) AS w, count(DISTINCT runs) AS r, count(nulls) AS x, min(wide) AS lo, max(runs) AS hi FROM '${path}'`,
      );
      expect(counts).toEqual([{ w: 20000n, r: 200n, x: 160000n, lo: "k0", hi: "r99" }]);
      const sample = await duckdbRows(conn, `SELECT wide, runs, nulls, one FROM '${path}' LIMIT 3 OFFSET 149999`);
      expect(sample).toEqual(df.slice(149_999, 3).toRecords());
      conn.closeSync();
    }
  });

  it("snappy and zstd shrink repetitive data", async () => {
    const n = 200_000;
    const df = new DataFrame({ a: Int32Array.from({ length: n }, (_, i) => i % 10), s: Array.from({ length: n }, (_, i) => `id${i % 100}`) });
    const sizes: Record<string, number> = {};
    for (const compression of COMPRESSIONS) {
      const path = tmp();
      await df.writeParquet(path, { compression });
      sizes[compression] = statSync(path).size;
      expectSameFrame(await readParquet(path), df);
    }
    expect(sizes.snappy!).toBeLessThan(sizes.none! / 2);
    expect(sizes.zstd!).toBeLessThan(sizes.snappy!);
  });

  it("the frame may be disposed while its file is written", async () => {
    const df = fromArrow(makeArrowTable(5000, "some"));
    const want = df.toRecords();
    const path = tmp();
    const pending = df.writeParquet(path);
    df.dispose();
    await pending;
    expect((await readParquet(path)).toRecords()).toEqual(want);
  });

  it("without libzstd (GPUDF_LIBZSTD=\"\"), zstd pages are stored zstd frames: read back there, here and by DuckDB", async () => {
    const df = fromArrow(makeArrowTable(500, "some", ALL_DTYPES, { dateSafe: true }));
    const none = tmp(), stored = tmp(), compressed = tmp(), roundTrip = tmp();
    await df.writeParquet(none, { compression: "none", rowGroupSize: 100 });
    await df.writeParquet(compressed, { compression: "zstd", rowGroupSize: 100 });
    // A process that cannot load libzstd writes zstd, reads its file back (stored blocks decode
    // without the library) and says what reading libzstd-compressed pages gives.
    const script = join(dir, "no-libzstd.mts");
    writeFileSync(
      script,
      [
        `import { readParquet } from ${JSON.stringify(join(root, "src", "index.ts"))};`,
        "const [none, stored, compressed, roundTrip] = process.argv.slice(2);",
        "const df = await readParquet(none);",
        'await df.writeParquet(stored, { compression: "zstd", rowGroupSize: 100 });',
        'await (await readParquet(stored)).writeParquet(roundTrip, { compression: "none" });',
        "let error = null;",
        "try { await readParquet(compressed); } catch (e) { error = { code: e.code, message: e.message }; }",
        "console.log(JSON.stringify({ error }));",
      ].join("\n"),
    );
    const out = execFileSync(process.execPath, [join(root, "node_modules", "tsx", "dist", "cli.mjs"), script, none, stored, compressed, roundTrip], {
      env: { ...process.env, GPUDF_LIBZSTD: "" },
      encoding: "utf8",
    });
    const { error } = JSON.parse(out) as { error: { code: string; message: string } | null };
    expect(error?.code).toBe("ERR_PARQUET");
    expect(error?.message).toContain("the ZSTD codec needs libzstd.so.1, which could not be loaded");
    // Stored blocks are not smaller than the plain pages; libzstd's are.
    expect(statSync(stored).size).toBeGreaterThan(statSync(none).size);
    expect(statSync(compressed).size).toBeLessThan(statSync(none).size);
    expectSameFrame(await readParquet(stored), df);
    expectSameFrame(await readParquet(roundTrip), df);
    const conn = await duckdbConnection();
    try {
      const want = await duckdbRows(conn, `SELECT * FROM '${none}'`);
      expect(want.length).toBe(500);
      expect(await duckdbRows(conn, `SELECT * FROM '${stored}'`)).toEqual(want);
    } finally {
      conn.closeSync();
    }
  });
});

describe("DuckDB reads files gpudf wrote", () => {
  // DuckDB's type for each dtype, and a SQL expression giving the stored count for temporal
  // columns (so values compare exactly). timestamp[s] has no Parquet unit: it is plain INT64.
  const SQL: Record<BaseDType, [string, (c: string) => string]> = {
    bool: ["BOOLEAN", (c) => c],
    int8: ["TINYINT", (c) => c],
    int16: ["SMALLINT", (c) => c],
    int32: ["INTEGER", (c) => c],
    int64: ["BIGINT", (c) => c],
    uint8: ["UTINYINT", (c) => c],
    uint16: ["USMALLINT", (c) => c],
    uint32: ["UINTEGER", (c) => c],
    uint64: ["UBIGINT", (c) => c],
    float32: ["FLOAT", (c) => c],
    float64: ["DOUBLE", (c) => c],
    utf8: ["VARCHAR", (c) => c],
    large_utf8: ["VARCHAR", (c) => c],
    date32: ["DATE", (c) => `datediff('day', DATE '1970-01-01', ${c})`],
    "timestamp[s]": ["BIGINT", (c) => c],
    "timestamp[ms]": ["TIMESTAMP", (c) => `epoch_ms(${c})`],
    "timestamp[us]": ["TIMESTAMP", (c) => `epoch_us(${c})`],
    "timestamp[ns]": ["TIMESTAMP_NS", (c) => `epoch_ns(${c})`],
    // Durations are plain INT64 counts (Parquet has no duration type).
    "duration[s]": ["BIGINT", (c) => c],
    "duration[ms]": ["BIGINT", (c) => c],
    "duration[us]": ["BIGINT", (c) => c],
    "duration[ns]": ["BIGINT", (c) => c],
  };
  // Integers compare by value whether they arrive as number or bigint.
  const norm = (v: unknown): unknown =>
    typeof v === "number" && Number.isInteger(v) && !Object.is(v, -0) ? BigInt(v) : v;

  /** Every dtype with `distinct` values repeating over `n` rows (dictionary-encoded chunks). */
  const repeating = (n: number, distinct: number): DataFrame => {
    const cols: Record<string, ReturnType<typeof makeArrowVector>> = {};
    for (const d of ALL_DTYPES) {
      const raw = Array.from({ length: n }, (_, i) => (isValidAt("some", i) ? valueAt(d, (i * 7) % distinct, { dateSafe: true }) : null));
      cols[d] = makeArrowVector(d, raw, { dateSafe: true });
    }
    return fromArrow(new Table(cols));
  };

  const cases: [string, () => DataFrame, number][] = NULL_PATTERNS.map((nulls) => [
    `nulls ${nulls}`,
    // dateSafe: DuckDB reads the int32/int64 extremes of dates and timestamps as infinities.
    () => fromArrow(makeArrowTable(700, nulls, ALL_DTYPES, { dateSafe: true })),
    256,
  ]);
  cases.push(["repeating values (dictionary pages)", () => repeating(5000, 37), 3000]);
  for (const compression of COMPRESSIONS) {
    for (const [label, make, rowGroupSize] of cases) {
      it(`every dtype, ${label}, ${compression}`, async () => {
        const df = make();
        const path = tmp();
        await df.writeParquet(path, { compression, rowGroupSize });
        expectSameFrame(await readParquet(path), df);
        const conn = await duckdbConnection();
        const types = await duckdbRows(conn, `DESCRIBE SELECT * FROM '${path}'`);
        expect(types.map((r) => r.column_type)).toEqual(ALL_DTYPES.map((d) => SQL[d][0]));
        const select = ALL_DTYPES.map((d) => `${SQL[d][1](`"${d}"`)} AS "${d}"`).join(", ");
        const rows = await duckdbRows(conn, `SELECT ${select} FROM '${path}'`);
        const table = df.toArrow();
        for (const d of ALL_DTYPES) {
          const want = rawValues(table.getChild(d)!).map(norm);
          const got = rows.map((r) => norm(r[d])) as Raw[];
          expect(diffValues(got, want), d).toBeNull();
        }
        if (label.startsWith("repeating")) {
          const enc = await duckdbRows(conn, `SELECT DISTINCT path_in_schema AS c, encodings AS e FROM parquet_metadata('${path}')`);
          expect(enc).toHaveLength(ALL_DTYPES.length);
          for (const r of enc) expect(r.e, String(r.c)).toBe(r.c === "bool" ? "PLAIN, RLE" : "PLAIN, RLE, RLE_DICTIONARY");
        }
        conn.closeSync();
      });
    }
  }

  it("an empty frame reads as 0 rows with the column types", async () => {
    const empty = fromArrow(makeArrowTable(0, "none", ["int32", "utf8"]));
    const path = tmp();
    await empty.writeParquet(path);
    const conn = await duckdbConnection();
    expect(await duckdbRows(conn, `SELECT count(*) AS n FROM '${path}'`)).toEqual([{ n: 0n }]);
    const types = await duckdbRows(conn, `DESCRIBE SELECT * FROM '${path}'`);
    expect(types.map((r) => r.column_type)).toEqual(["INTEGER", "VARCHAR"]);
    conn.closeSync();
  });

  it("column statistics: null counts and min/max in the dtype's order", async () => {
    const df = new DataFrame({
      u: new Series("u", [1, 4294967295, null, 7], "uint32"),
      f: new Series("f", [Number.NaN, -0, 2.5, null], "float64"),
      i: new Series("i", [null, null, null, null], "int64"),
    });
    const path = tmp();
    await df.writeParquet(path);
    const conn = await duckdbConnection();
    const stats = await duckdbRows(
      conn,
      `SELECT path_in_schema AS c, stats_null_count AS n, stats_min_value AS lo, stats_max_value AS hi FROM parquet_metadata('${path}') ORDER BY column_id`,
    );
    expect(stats).toEqual([
      { c: "u", n: 1n, lo: "1", hi: "4294967295" },
      { c: "f", n: 1n, lo: "-0.0", hi: "2.5" },
      { c: "i", n: 4n, lo: null, hi: null },
    ]);
    // DuckDB's filter pushdown uses them: no row of u is above 4294967295.
    expect(await duckdbRows(conn, `SELECT count(*) AS n FROM '${path}' WHERE u > 4000000000`)).toEqual([{ n: 1n }]);
    conn.closeSync();
  });
});

describe("writeParquet errors", () => {
  it("bad options are ERR_INVALID_ARGUMENT and leave the frame intact", async () => {
    const df = new DataFrame({ a: [1, 2] });
    const bad: unknown[] = [
      { compression: "lz5" },
      { compression: 3 },
      { rowGroupSize: 0 },
      { rowGroupSize: 1.5 },
      { rowGroupSize: "10" },
      { rowGroupSize: -1 },
    ];
    for (const options of bad) {
      // @ts-expect-error: checking the runtime validation
      await expect(df.writeParquet(tmp(), options)).rejects.toMatchObject({ code: "ERR_INVALID_ARGUMENT" });
    }
    expect(df.toRecords()).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it("an unwritable path is ERR_IO naming the path", async () => {
    const df = new DataFrame({ a: [1, 2] });
    const missing = join(dir, "no-such-dir", "x.parquet");
    await expect(df.writeParquet(missing)).rejects.toMatchObject({ code: "ERR_IO", message: expect.stringContaining(missing) });
    await expect(df.writeParquet(dir)).rejects.toMatchObject({ code: "ERR_IO" });
    // @ts-expect-error: checking the runtime validation
    await expect(df.writeParquet(42)).rejects.toMatchObject({ code: "ERR_IO" });
    expect(df.toRecords()).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it("a disposed frame is ERR_DISPOSED", async () => {
    const df = new DataFrame({ a: [1, 2] });
    df.dispose();
    await expect(df.writeParquet(tmp())).rejects.toMatchObject({ code: "ERR_DISPOSED" });
  });
});
