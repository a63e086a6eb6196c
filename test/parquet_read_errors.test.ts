/**
 * The native Parquet reader on bad input: truncated and corrupt footers, a bad page header, a
 * page that fails to decompress, a dictionary index out of range, levels that do not add up:
 * each a typed error naming the file (and column and row group where there is one); a seeded
 * mutation fuzz test in which only GpudfErrors may come out; and the event loop kept free
 * during an asynchronous read.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { DataFrame, GpudfError, Series, parquetMetadata, readParquet, readParquetSync } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "gpudf-pqerr-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let good: Buffer;
let plainPath: string;
beforeAll(async () => {
  const n = 2000;
  const df = new DataFrame({
    id: new Series("id", Array.from({ length: n }, (_, i) => (i % 17 === 0 ? null : i)), "int32"),
    cat: new Series("cat", Array.from({ length: n }, (_, i) => `c${i % 5}`), "utf8"),
    x: new Series("x", Array.from({ length: n }, (_, i) => i / 3), "float64"),
  });
  plainPath = join(dir, "good.parquet");
  await df.writeParquet(plainPath, { compression: "snappy", rowGroupSize: 700 });
  good = readFileSync(plainPath);
  df.dispose();
});

/** Where `pattern` first occurs in the file. */
function find(buf: Buffer, pattern: Buffer, from = 0): number {
  const at = buf.indexOf(pattern, from);
  expect(at).toBeGreaterThanOrEqual(0);
  return at;
}

function expectParquetError(bytes: Uint8Array, ...fragments: string[]): void {
  const path = join(dir, `bad-${Math.random().toString(36).slice(2)}.parquet`);
  writeFileSync(path, bytes);
  let err: unknown;
  try {
    readParquetSync(path).dispose();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(GpudfError);
  expect((err as GpudfError).code).toBe("ERR_PARQUET");
  expect((err as Error).message).toContain(path);
  for (const f of fragments) expect((err as Error).message).toContain(f);
}

describe("bad Parquet input gets typed errors", () => {
  it("the file itself reads back", () => {
    const df = readParquetSync(plainPath);
    expect(df.height).toBe(2000);
    expect(df.getColumn("cat").toArray().slice(0, 3)).toEqual(["c0", "c1", "c2"]);
    df.dispose();
  });

  it("not Parquet, truncated, a corrupt footer length, a corrupt footer", () => {
    expectParquetError(Buffer.from("hello, this is not a parquet file"), "not a Parquet file");
    expectParquetError(good.subarray(0, good.length - 100), "truncated");
    const badLen = Buffer.from(good);
    badLen.writeUInt32LE(0x7fffffff, badLen.length - 8);
    expectParquetError(badLen, "footer");
    const footerLen = good.readUInt32LE(good.length - 8);
    const badFooter = Buffer.from(good);
    badFooter.fill(0xff, badFooter.length - 8 - footerLen, badFooter.length - 8 - footerLen + 16);
    expectParquetError(badFooter, "footer");
    expect(() => readParquetSync(join(dir, "missing.parquet"))).toThrow(expect.objectContaining({ code: "ERR_IO" }));
  });

  it("a bad page header names the column and row group", () => {
    const bad = Buffer.from(good);
    bad.fill(0xff, 4, 12); // the first column chunk's first page header
    expectParquetError(bad, "column 'id'", "row group 0");
  });

  it("a page that fails to decompress", () => {
    const bad = Buffer.from(good);
    // Inside the body of the first data page of column x (PLAIN doubles, Snappy): garbage.
    const chunk = parquetMetadata(good).rowGroups[0]!.columns[2]!;
    expect(chunk.dictionaryPageOffset).toBeNull();
    const at = (chunk.dataPageOffset as number) + 200;
    bad.fill(0xfe, at, at + 24);
    let err: unknown;
    try {
      readParquetSync(bad).dispose();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GpudfError);
    expect((err as GpudfError).code).toBe("ERR_PARQUET");
    expect((err as Error).message).toContain("<buffer>: column 'x', row group 0: a page fails to decompress (SNAPPY)");
  });

  it("a dictionary index out of range and levels that do not add up (uncompressed file, patched)", async () => {
    const df = new DataFrame({ k: new Series("k", Array.from({ length: 64 }, (_, i) => `key${i % 3}`), "utf8") });
    const path = join(dir, "dict.parquet");
    await df.writeParquet(path, { compression: "none" });
    df.dispose();
    const bytes = readFileSync(path);
    // The data page's indices: bit width 2, then one bit-packed run of 8 groups (header 0x11) of
    // 0, 1, 2, ...; all ones makes every index 3, past the dictionary's 3 entries.
    const widthAt = find(bytes, Buffer.from([0x02, 0x11]), find(bytes, Buffer.from("key2")) + 4);
    const wide = Buffer.from(bytes);
    wide.fill(0xff, widthAt + 2, widthAt + 18);
    expectParquetError(wide, "column 'k'");
    const wideErr = (() => {
      try {
        readParquetSync(wide);
      } catch (e) {
        return (e as Error).message;
      }
      return "";
    })();
    expect(wideErr, wideErr).toMatch(/dictionary index \d+ out of range/);
    // num_values of the data page header (field 5.1, a zigzag varint of 64 = 0x80 0x01) -> 65.
    const header = find(bytes, Buffer.from([0x15, 0x80, 0x01]), widthAt - 40);
    const more = Buffer.from(bytes);
    more[header + 1] = 0x82;
    expectParquetError(more, "levels do not add up");
  });

  it("a seeded mutation fuzz test: only GpudfErrors come out", () => {
    let seed = 0x9e3779b9;
    const rand = (n: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    let failures = 0;
    for (let k = 0; k < 300; k++) {
      const bytes = Buffer.from(good);
      const edits = 1 + rand(4);
      for (let e = 0; e < edits; e++) {
        const at = rand(bytes.length);
        bytes[at] = rand(3) === 0 ? 0xff : rand(256);
      }
      try {
        readParquetSync(bytes).dispose();
      } catch (err) {
        if (!(err instanceof GpudfError)) throw err;
        expect(["ERR_PARQUET", "ERR_IO", "ERR_OUT_OF_MEMORY", "ERR_COLUMN_NOT_FOUND"]).toContain(err.code);
        failures++;
      }
    }
    expect(failures).toBeGreaterThan(0);
  });
});

describe("readParquet leaves the event loop free", () => {
  it("a timer keeps firing during the read of a large file", async () => {
    const n = 3_000_000;
    const ids = new Int32Array(n).map((_, i) => i);
    const df = new DataFrame({ a: new Series("a", ids), b: new Series("b", Float64Array.from(ids, (v) => v * 0.5)) });
    const path = join(dir, "big.parquet");
    await df.writeParquet(path, { compression: "zstd" });
    df.dispose();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const progress: number[] = [];
    const read = await readParquet(path, { onProgress: (done) => progress.push(done) });
    const ticksDuringRead = ticks;
    clearInterval(timer);
    expect(read.height).toBe(n);
    expect(read.getColumn("a").toArray()[n - 1]).toBe(n - 1);
    read.dispose();
    expect(ticksDuringRead).toBeGreaterThan(0);
    expect(progress.length).toBeGreaterThan(0);
  });
});
