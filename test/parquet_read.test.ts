/**
 * The native Parquet reader against files other writers made: DuckDB with each of its codecs and
 * many row groups, nodejs-polars, parquet-wasm with each encoding it can write (dictionary off,
 * DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, data page
 * v2, LZ4 and BROTLI); every value compared with DuckDB reading the same file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { tableFromIPC, tableToIPC } from "apache-arrow";
import pl from "nodejs-polars";
import * as pq from "parquet-wasm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { col, parquetMetadata, readParquet, readParquetSync, scanParquet, type DataFrame } from "../src/index.js";
import type { DuckDBConnection } from "@duckdb/node-api";
import { duckdbConnection, duckdbRows } from "./support/duckdb.js";

const dir = mkdtempSync(join(tmpdir(), "gpudf-pqread-"));
let conn: DuckDBConnection;
beforeAll(async () => {
  conn = await duckdbConnection();
  await conn.run(`CREATE TABLE t AS SELECT
      i::INTEGER AS i32,
      CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 1000000007)::BIGINT END AS i64,
      (i % 100 - 50)::TINYINT AS i8,
      (i % 1000)::SMALLINT AS i16,
      (i % 250)::UTINYINT AS u8,
      (i * 3)::UINTEGER AS u32,
      (i::UBIGINT * 12345678901) AS u64,
      (i * 0.25)::FLOAT AS f32,
      CASE WHEN i % 11 = 0 THEN NULL ELSE i / 8.0 END::DOUBLE AS f64,
      CASE WHEN i % 5 = 0 THEN NULL ELSE 'v' || (i % 37) END AS s,
      'long string number ' || i AS s_unique,
      (i % 3 = 0) AS b,
      DATE '2020-01-01' + (i % 2000)::INTEGER AS d,
      TIMESTAMP '2021-03-04 05:06:07' + to_microseconds(i * 1000003) AS ts,
      (i / 7.0)::DECIMAL(18, 3) AS dec,
      (i / 3.0)::DECIMAL(30, 4) AS dec_wide
    FROM range(5000) r(i)`);
});
afterAll(() => {
  conn?.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

/** DuckDB's reading of a file, as plain JS values matching the gpudf frame's toArray(). */
async function duckdbColumns(path: string, names: string[]): Promise<Record<string, unknown[]>> {
  const rows = await duckdbRows(conn, `SELECT * FROM '${path}'`);
  const out: Record<string, unknown[]> = {};
  for (const n of names) out[n] = rows.map((r) => r[n]);
  return out;
}

function norm(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.getTime();
  if (typeof v === "object" && v !== null && "micros" in v) return Number((v as { micros: bigint }).micros / 1000n);
  if (typeof v === "object" && v !== null && "days" in v) return (v as { days: number }).days;
  if (typeof v === "object" && v !== null && "width" in v && "scale" in v && "value" in v) {
    const d = v as { value: bigint; scale: number };
    return Number(d.value) / 10 ** d.scale;
  }
  if (typeof v === "number" && Math.abs(v) < 1e15 && !Number.isInteger(v)) return Math.round(v * 1e9) / 1e9;
  return v;
}

async function expectLikeDuckdb(df: DataFrame, path: string): Promise<void> {
  const want = await duckdbColumns(path, df.columns);
  expect(df.height).toBe((want[df.columns[0] as string] ?? []).length);
  for (const name of df.columns) {
    const got = df.getColumn(name).toArray().map(norm);
    const exp = (want[name] as unknown[]).map(norm);
    expect(got, `column ${name}`).toEqual(exp);
  }
}

describe("files written by DuckDB", () => {
  for (const codec of ["uncompressed", "snappy", "gzip", "zstd", "lz4", "lz4_raw", "brotli"]) {
    it(`${codec}, many row groups: every dtype and null as DuckDB reads it`, async () => {
      const path = join(dir, `duck-${codec}.parquet`);
      await conn.run(`COPY t TO '${path}' (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE 1024)`);
      const df = await readParquet(path);
      try {
        expect(df.schema).toEqual({
          i32: "int32", i64: "int64", i8: "int8", i16: "int16", u8: "uint8", u32: "uint32", u64: "uint64",
          f32: "float32", f64: "float64", s: "utf8", s_unique: "utf8", b: "bool", d: "date32", ts: "timestamp[us]",
          dec: "float64", dec_wide: "float64",
        });
        await expectLikeDuckdb(df, path);
      } finally {
        df.dispose();
      }
    });
  }

  it("columns, rowGroups, nRows, rowIndex and a filter that prunes row groups", async () => {
    const path = join(dir, "duck-opts.parquet");
    await conn.run(`COPY (SELECT * FROM t ORDER BY i32) TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 1000)`);
    const groups = parquetMetadata(path).rowGroups.map((g) => g.numRows);
    expect(groups.length).toBeGreaterThan(2);
    const g0 = groups[0] as number, g1 = groups[1] as number;
    const a = readParquetSync(path, { columns: ["s", "i32"], rowGroups: [2, 0], nRows: g0 + 10 });
    expect(a.columns).toEqual(["s", "i32"]);
    expect(a.height).toBe(g0 + 10);
    const ids = a.getColumn("i32").toArray();
    expect(ids.slice(0, 2)).toEqual([g0 + g1, g0 + g1 + 1]);
    a.dispose();
    const b = await readParquet(path, { filter: col("i32").gte(4990).or(col("i32").lt(3)), columns: ["i32"], rowIndex: "idx" });
    expect(b.columns).toEqual(["idx", "i32"]);
    expect(b.getColumn("i32").toArray()).toEqual([0, 1, 2, 4990, 4991, 4992, 4993, 4994, 4995, 4996, 4997, 4998, 4999]);
    expect(b.getColumn("idx").toArray()).toEqual([0n, 1n, 2n, 4990n, 4991n, 4992n, 4993n, 4994n, 4995n, 4996n, 4997n, 4998n, 4999n]);
    b.dispose();
    // Pruning: the filtered read decodes only the first and last row groups' chunks.
    const totals: Record<string, number> = {};
    const track = (key: string) => (_done: number, total: number) => (totals[key] = total);
    (await readParquet(path, { columns: ["i32"], onProgress: track("all") })).dispose();
    (await readParquet(path, { columns: ["i32"], filter: col("i32").gte(4990).or(col("i32").lt(3)), onProgress: track("pruned") })).dispose();
    const sizes = parquetMetadata(path).rowGroups.map((g) => g.columns.find((c) => c.name === "i32")!.compressedSize as number);
    expect(totals.all).toBe(sizes.reduce((a, v) => a + v, 0));
    expect(totals.pruned).toBe((sizes[0] as number) + (sizes[sizes.length - 1] as number));
    expect(() => readParquetSync(path, { colums: ["x"] } as never)).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => readParquetSync(path, { columns: ["nope"] })).toThrow(expect.objectContaining({ code: "ERR_COLUMN_NOT_FOUND" }));
  });

  it("scanParquet: projection and a pushed-down predicate over many row groups, collect and collectSync", async () => {
    const path = join(dir, "duck-opts.parquet");
    const lf = scanParquet(path).filter(col("i32").lt(3).or(col("i32").gt(4997))).select("i32", "s");
    const want = [{ i32: 0, s: null }, { i32: 1, s: "v1" }, { i32: 2, s: "v2" }, { i32: 4998, s: "v3" }, { i32: 4999, s: "v4" }];
    expect(lf.collectSync().toRecords()).toEqual(want);
    expect((await lf.collect()).toRecords()).toEqual(want);
  });

  it("a glob over hive-partitioned folders reads as one frame with the partition columns", async () => {
    const root = join(dir, "hive");
    for (const [y, c] of [[2020, "a"], [2021, "b"]] as const) {
      mkdirSync(join(root, `year=${y}`, `cat=${c}`), { recursive: true });
      await conn.run(`COPY (SELECT i32 FROM t WHERE i32 < 3) TO '${join(root, `year=${y}`, `cat=${c}`, "part.parquet")}' (FORMAT parquet)`);
    }
    const df = await readParquet(join(root, "*", "*", "*.parquet"));
    expect(df.schema).toEqual({ i32: "int32", year: "int64", cat: "utf8" });
    expect(df.toRecords()).toEqual([
      { i32: 0, year: 2020n, cat: "a" }, { i32: 1, year: 2020n, cat: "a" }, { i32: 2, year: 2020n, cat: "a" },
      { i32: 0, year: 2021n, cat: "b" }, { i32: 1, year: 2021n, cat: "b" }, { i32: 2, year: 2021n, cat: "b" },
    ]);
    df.dispose();
  });

  it("an empty file and a nested column", async () => {
    const empty = join(dir, "duck-empty.parquet");
    await conn.run(`COPY (SELECT * FROM t WHERE false) TO '${empty}' (FORMAT parquet)`);
    const df = await readParquet(empty);
    expect(df.height).toBe(0);
    expect(df.schema.s).toBe("utf8");
    df.dispose();
    const nested = join(dir, "duck-nested.parquet");
    await conn.run(`COPY (SELECT 1 AS a, [1, 2] AS l) TO '${nested}' (FORMAT parquet)`);
    await expect(readParquet(nested)).rejects.toMatchObject({ code: "ERR_PARQUET", message: expect.stringContaining("'l'") });
    const onlyA = await readParquet(nested, { columns: ["a"] });
    expect(onlyA.toRecords()).toEqual([{ a: 1 }]);
    onlyA.dispose();
  });
});

describe("files written by nodejs-polars and parquet-wasm", () => {
  it("nodejs-polars", async () => {
    const path = join(dir, "polars.parquet");
    pl.DataFrame({
      a: [1, null, 3, 4],
      s: ["x", "yy", null, "x"],
      f: [0.5, 1.5, null, -2],
      b: [true, false, null, true],
    }).writeParquet(path);
    const df = await readParquet(path);
    await expectLikeDuckdb(df, path);
    df.dispose();
  });

  const wasmCases: [string, (b: pq.WriterPropertiesBuilder) => pq.WriterPropertiesBuilder][] = [
    ["dictionary off, PLAIN", (b) => b.setDictionaryEnabled(false)],
    ["DELTA_BINARY_PACKED / DELTA_LENGTH_BYTE_ARRAY", (b) => b.setDictionaryEnabled(false).setColumnEncoding("i", pq.Encoding.DELTA_BINARY_PACKED).setColumnEncoding("big", pq.Encoding.DELTA_BINARY_PACKED).setColumnEncoding("s", pq.Encoding.DELTA_LENGTH_BYTE_ARRAY)],
    ["DELTA_BYTE_ARRAY", (b) => b.setDictionaryEnabled(false).setColumnEncoding("s", pq.Encoding.DELTA_BYTE_ARRAY)],
    ["BYTE_STREAM_SPLIT", (b) => b.setDictionaryEnabled(false).setColumnEncoding("f", pq.Encoding.BYTE_STREAM_SPLIT).setColumnEncoding("d", pq.Encoding.BYTE_STREAM_SPLIT)],
    ["data page v2, LZ4_RAW", (b) => b.setWriterVersion(pq.WriterVersion.V2).setCompression(pq.Compression.LZ4_RAW)],
    ["data page v2, dictionary off, BROTLI", (b) => b.setWriterVersion(pq.WriterVersion.V2).setDictionaryEnabled(false).setCompression(pq.Compression.BROTLI)],
    ["LZ4 (Hadoop framing)", (b) => b.setCompression(pq.Compression.LZ4)],
    ["GZIP, small pages", (b) => b.setCompression(pq.Compression.GZIP).setDataPageSizeLimit(512).setMaxRowGroupSize(700)],
    // The dictionary outgrows its limit within a chunk: a dictionary page, dictionary-encoded
    // pages, then PLAIN pages in the same chunk (what writers do for high-cardinality columns).
    ["a dictionary that outgrows its limit, then PLAIN pages", (b) => b.setDictionaryPageSizeLimit(1024).setDataPageSizeLimit(512)],
  ];
  for (const [name, props] of wasmCases) {
    it(`parquet-wasm: ${name}`, async () => {
      const n = 3000;
      const src = pl.DataFrame([
        pl.Series("i", Array.from({ length: n }, (_, k) => (k % 13 === 0 ? null : k * 7 - 5000)), pl.Int32),
        pl.Series("big", Array.from({ length: n }, (_, k) => k * 123456789), pl.Int64),
        pl.Series("f", Array.from({ length: n }, (_, k) => (k % 9 === 0 ? null : k / 4)), pl.Float32),
        pl.Series("d", Array.from({ length: n }, (_, k) => k * 1.125), pl.Float64),
        pl.Series("s", Array.from({ length: n }, (_, k) => (k % 10 === 0 ? null : `prefix-${Math.floor(k / 3)}`)), pl.Utf8),
      ]);
      const ipc = src.writeIPC();
      const table = pq.Table.fromIPCStream(ipcFileToStream(ipc));
      const bytes = pq.writeParquet(table, props(new pq.WriterPropertiesBuilder()).build());
      const path = join(dir, `wasm-${name.replace(/\W+/g, "_")}.parquet`);
      writeFileSync(path, bytes);
      const df = await readParquet(Buffer.from(bytes));
      expect(df.schema).toEqual({ i: "int32", big: "int64", f: "float32", d: "float64", s: "utf8" });
      if (name.startsWith("LZ4 (Hadoop")) {
        // DuckDB does not read this codec: compared with the values written.
        for (const c of df.columns) {
          expect(df.getColumn(c).toArray().map(norm), c).toEqual([...src.getColumn(c)].map((v) => norm(c === "big" && v !== null ? BigInt(v as number) : v)));
        }
      } else {
        await expectLikeDuckdb(df, path);
      }
      df.dispose();
    });
  }
});

/** nodejs-polars writes the IPC file format; parquet-wasm takes a stream. */
function ipcFileToStream(ipc: Buffer): Uint8Array {
  return tableToIPC(tableFromIPC(ipc), "stream");
}
