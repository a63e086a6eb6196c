/**
 * Arrow IPC and Parquet: exact round trips for every dtype with nulls, interop with DuckDB's
 * Parquet reader and writer, typed errors for unreadable input.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { DataFrame, Series, fromArrow, readIPC, readIPCSync, readParquet, type DType } from "../src/index.js";
import { toIPCBytes, toIPCChunks } from "../src/io/ipc.js";
import { ALL_DTYPES, NULL_PATTERNS, expectSameFrame, makeArrowTable } from "./helpers.js";
import { duckdbConnection, duckdbRows, duckdbTable } from "./support/duckdb.js";

const dir = mkdtempSync(join(tmpdir(), "gpudf-io-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;
const tmp = (ext: string): string => join(dir, `f${fileNo++}.${ext}`);

describe("Arrow IPC", () => {
  for (const nulls of NULL_PATTERNS) {
    for (const length of [0, 65, 1000]) {
      for (const format of ["file", "stream"] as const) {
        it(`round trip of every dtype, ${length} rows, nulls ${nulls}, ${format}`, async () => {
          const df = fromArrow(makeArrowTable(length, nulls));
          const path = tmp("arrow");
          await df.writeIPC(path, { format });
          const back = await readIPC(path);
          expectSameFrame(back, df);
          const backSync = readIPCSync(path);
          expectSameFrame(backSync, df);
          for (const f of [df, back, backSync]) f.dispose();
        });
      }
    }
  }

  it("writeIPCSync writes the same bytes as writeIPC; both reject unknown options", async () => {
    const df = fromArrow(makeArrowTable(65, "some"));
    for (const format of ["file", "stream"] as const) {
      const a = tmp("arrow");
      const b = tmp("arrow");
      await df.writeIPC(a, { format });
      df.writeIPCSync(b, { format });
      expect(readFileSync(b).equals(readFileSync(a))).toBe(true);
      expectSameFrame(readIPCSync(b), df);
    }
    // @ts-expect-error: a misspelt option
    await expect(df.writeIPC(tmp("arrow"), { fromat: "stream" })).rejects.toThrow(/writeIPC: unknown option "fromat" \(did you mean "format"\?\)/);
    // @ts-expect-error: a misspelt option
    expect(() => df.writeIPCSync(tmp("arrow"), { fromat: "stream" })).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
  });

  it("writeIPC copies the columns out off the JS thread and never joins the bodies: timers run, the frame may be disposed at once", async () => {
    const n = 2_000_000;
    const make = () => new DataFrame({ x: Float64Array.from({ length: n }, (_, i) => i * 0.5), s: Array.from({ length: 1000 }, (_, i) => `r${i}`).concat(Array(n - 1000).fill(null)) });
    // The chunks are the writer's own: metadata, padding and one view per body buffer, so none is
    // larger than the largest column buffer (16 MB of float64) although the file is larger.
    const df = make();
    const chunks = await toIPCChunks(df);
    const total = chunks.reduce((a, c) => a + c.byteLength, 0);
    expect(total).toBeGreaterThan(n * 8 + n / 8);
    expect(Math.max(...chunks.map((c) => c.byteLength))).toBe(n * 8);
    const joined = new Uint8Array(total);
    chunks.reduce((at, c) => (joined.set(c, at), at + c.byteLength), 0);
    expect(Buffer.from(joined).equals(Buffer.from(toIPCBytes(df)))).toBe(true);
    for (const format of ["file", "stream"] as const) {
      const path = tmp("arrow");
      const f = make();
      // Timers run while the write is in progress (see csv.test.ts: how many depends on the load).
      let writing = true;
      let ticksWhileWriting = 0;
      const timer = setInterval(() => {
        if (writing) ticksWhileWriting++;
      }, 1);
      const written = f.writeIPC(path, { format }).finally(() => (writing = false));
      f.dispose(); // the write holds the columns it copies
      await written;
      clearInterval(timer);
      expect(ticksWhileWriting, format).toBeGreaterThan(0);
      const back = readIPCSync(path);
      expectSameFrame(back, df);
      back.dispose();
    }
    df.dispose();
  });

  it("a sliced frame writes only its rows", async () => {
    const df = fromArrow(makeArrowTable(100, "some"));
    const part = df.slice(3, 40);
    const path = tmp("arrow");
    await part.writeIPC(path);
    const back = await readIPC(path);
    expect(back.height).toBe(40);
    expectSameFrame(back, part);
  });

  it("errors: a missing file and foreign bytes are ERR_IO, a bad format ERR_INVALID_ARGUMENT", async () => {
    await expect(readIPC(join(dir, "missing.arrow"))).rejects.toMatchObject({ code: "ERR_IO" });
    expect(() => readIPCSync(join(dir, "missing.arrow"))).toThrow(expect.objectContaining({ code: "ERR_IO" }));
    const junk = tmp("arrow");
    writeFileSync(junk, "this is not arrow");
    await expect(readIPC(junk)).rejects.toMatchObject({ code: "ERR_IO" });
    const df = new DataFrame({ a: [1, 2] });
    // @ts-expect-error: checking the runtime validation
    await expect(df.writeIPC(tmp("arrow"), { format: "csv" })).rejects.toMatchObject({ code: "ERR_INVALID_ARGUMENT" });
    expect(df.toRecords()).toEqual([{ a: 1 }, { a: 2 }]);
  });
});

// The writer's round trips (every dtype, null pattern, compression and row-group split) are in
// parquet.test.ts; here: reading, column selection and DuckDB interop.
describe("Parquet", () => {
  it("empty frame and a sliced frame", async () => {
    const empty = fromArrow(makeArrowTable(0, "none"));
    const p1 = tmp("parquet");
    await empty.writeParquet(p1);
    const back1 = await readParquet(p1);
    expect(back1.shape).toEqual([0, ALL_DTYPES.length]);
    expect(back1.dtypes).toEqual(empty.dtypes);
    const part = fromArrow(makeArrowTable(200, "some")).slice(13, 101);
    const p2 = tmp("parquet");
    await part.writeParquet(p2);
    expectSameFrame(await readParquet(p2), part);
  });

  it("columns: reads only those, in the order asked", async () => {
    const df = fromArrow(makeArrowTable(50, "some", ["int32", "utf8", "float64"]));
    const path = tmp("parquet");
    await df.writeParquet(path);
    const back = await readParquet(path, { columns: ["float64", "int32"] });
    expect(back.columns).toEqual(["float64", "int32"]);
    expectSameFrame(back, df.select("float64", "int32"));
    await expect(readParquet(path, { columns: ["nope"] })).rejects.toMatchObject({ code: expect.stringMatching(/ERR_IO|ERR_COLUMN_NOT_FOUND/) });
  });

  it("errors: missing file, foreign bytes, unknown compression", async () => {
    await expect(readParquet(join(dir, "missing.parquet"))).rejects.toMatchObject({ code: "ERR_IO" });
    const junk = tmp("parquet");
    writeFileSync(junk, "PAR1 but not really");
    await expect(readParquet(junk)).rejects.toMatchObject({ code: "ERR_PARQUET" });
    const df = new DataFrame({ a: [1, 2] });
    // @ts-expect-error: checking the runtime validation
    await expect(df.writeParquet(tmp("parquet"), { compression: "lz5" })).rejects.toMatchObject({
      code: "ERR_INVALID_ARGUMENT",
    });
  });

  describe("interop with DuckDB", () => {
    const dtypes: Record<string, DType> = { i: "int32", b: "int64", d: "float64", s: "utf8", f: "bool" };
    const columns: Record<string, unknown[]> = {
      i: [1, null, -3, 2147483647, 0],
      b: [-(2n ** 63n), 5n, null, 2n ** 63n - 1n, 0n],
      d: [1.5, Number.NaN, null, Number.POSITIVE_INFINITY, -0.25],
      s: ["x", null, "héllo", "日本語", ""],
      f: [true, false, null, true, false],
    };

    it("gpudf reads a file DuckDB wrote", async () => {
      const conn = await duckdbTable(columns, dtypes);
      const path = tmp("parquet");
      await conn.run(`COPY t TO '${path}' (FORMAT parquet)`);
      const df = await readParquet(path);
      expect(df.dtypes).toEqual(["int32", "int64", "float64", "utf8", "bool"]);
      expect(df.toRecords()).toEqual(await duckdbRows(conn, "SELECT * FROM t"));
      conn.closeSync();
    });

    it("DuckDB reads a file gpudf wrote", async () => {
      let df = new DataFrame({});
      for (const [name, values] of Object.entries(columns)) df = df.withColumn(new Series(name, values, dtypes[name]));
      const path = tmp("parquet");
      await df.writeParquet(path);
      const conn = await duckdbConnection();
      const rows = await duckdbRows(conn, `SELECT * FROM '${path}'`);
      expect(rows).toEqual(df.toRecords());
      conn.closeSync();
    });
  });
});
