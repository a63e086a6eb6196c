/**
 * scanCSV / scanParquet / scanIPC: schemas read when the scan is made, data at collect() (only
 * the columns the plan uses; a head as a row limit), path lists and globs as one frame, and the
 * errors of each.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { col, DataFrame, len, readCSV, scanCSV, scanIPC, scanParquet } from "gpudf";
import { expectSameFrame } from "../helpers.js";

const dir = mkdtempSync(join(tmpdir(), "gpudf-scan-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const csv = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

const trips = csv("trips.csv", "city,fare,trips,day\nNYC,12.5,3,2024-01-01\nSF,8,1,2024-01-02\n,30,7,2024-01-03\nNYC,41,2,2024-01-04\nLA,,5,2024-01-05\n");

describe("scanCSV", () => {
  it("reads the schema when made, the same frame as readCSV when collected", async () => {
    const lf = scanCSV(trips, { tryParseDates: true });
    expect(lf.schema).toEqual({ city: "utf8", fare: "float64", trips: "int64", day: "date32" });
    expectSameFrame(await lf.collect(), await readCSV(trips, { tryParseDates: true }));
  });
  it("parses only the columns the plan reads; a head is a row limit for the reader", () => {
    const lf = scanCSV(trips).filter(col("trips").gt(1)).select("city");
    expect(lf.explain()).toBe('SELECT col("city")\n  SCAN CSV ' + JSON.stringify(trips) + ' [2 of 4 columns: city, trips]; filter (col("trips") > lit(1))');
    expect(lf.collectSync().toRecords()).toEqual([{ city: "NYC" }, { city: null }, { city: "NYC" }, { city: "LA" }]);
    const head = scanCSV(trips).head(2);
    expect(head.explain()).toContain("first 2 rows");
    expect(head.collectSync().toRecords()).toEqual([
      { city: "NYC", fare: 12.5, trips: 3n, day: "2024-01-01" },
      { city: "SF", fare: 8, trips: 1n, day: "2024-01-02" },
    ]);
  });
  it("fixes the dtypes inferred from the first rows: a later value that does not parse fails the collect", async () => {
    const rows = ["k,v", ...Array.from({ length: 150 }, (_, i) => `${i},1`), "x,2"].join("\n");
    const p = csv("late.csv", rows);
    const lf = scanCSV(p);
    expect(lf.schema).toEqual({ k: "int64", v: "int64" });
    await expect(lf.collect()).rejects.toMatchObject({ code: expect.stringMatching(/^ERR_/) });
    // Inferring from every row widens the column instead.
    expect(scanCSV(p, { inferSchemaLength: 0 }).schema).toEqual({ k: "utf8", v: "int64" });
  });
  it("reads several paths or a glob as one frame; schemas must agree", () => {
    mkdirSync(join(dir, "parts"), { recursive: true });
    csv("parts/a-1.csv", "k,v\n1,10\n2,20\n");
    csv("parts/a-2.csv", "k,v\n3,30\n");
    csv("parts/b.csv", "k,w\n4,x\n");
    const glob = scanCSV(join(dir, "parts", "a-*.csv"));
    expect(glob.collectSync().toRecords()).toEqual([
      { k: 1n, v: 10n },
      { k: 2n, v: 20n },
      { k: 3n, v: 30n },
    ]);
    expect(scanCSV([join(dir, "parts", "a-2.csv"), join(dir, "parts", "a-1.csv")]).select(len()).collectSync().toRecords()).toEqual([{ len: 3n }]);
    expect(scanCSV(join(dir, "**", "a-?.csv")).collectSync().height).toBe(3);
    expect(() => scanCSV(join(dir, "parts", "*.csv"))).toThrow(/concat: frame 2 has columns \[k, w\]/);
    expect(() => scanCSV(join(dir, "parts", "nothing-*.csv"))).toThrow(/no file matches/);
    expect(() => scanCSV(join(dir, "absent.csv"))).toThrowError(expect.objectContaining({ code: "ERR_IO" }));
    expect(() => scanCSV(trips, { onProgress: () => {} } as never)).toThrowError(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
  });
});

describe("scanParquet and scanIPC", () => {
  const df = new DataFrame({ a: Int32Array.of(1, 2, 3, 4), s: ["w", "x", null, "z"], f: [0.5, 1.5, 2.5, 3.5] });
  it("scanParquet: the file's schema; only the columns used are read", async () => {
    const p = join(dir, "t.parquet");
    await df.writeParquet(p);
    const lf = scanParquet(p);
    expect(lf.schema).toEqual(df.schema);
    const out = await lf.filter(col("a").gt(1)).select("s").collect();
    expect(out.toRecords()).toEqual([{ s: "x" }, { s: null }, { s: "z" }]);
    expect(lf.select("f").explain()).toContain("[1 of 3 columns: f]");
    expect(lf.filter(col("a").lte(2)).select("s", "a").collectSync().toRecords()).toEqual([{ s: "w", a: 1 }, { s: "x", a: 2 }]);
  });
  it("scanIPC: the file's schema, collected sync or async", async () => {
    const p = join(dir, "t.arrow");
    await df.writeIPC(p);
    const lf = scanIPC(p);
    expect(lf.schema).toEqual(df.schema);
    expectSameFrame(lf.collectSync(), df);
    expectSameFrame(await lf.sort("a", { descending: true }).head(1).collect(), df.tail(1));
    writeFileSync(join(dir, "bad.arrow"), "not arrow");
    expect(() => scanIPC(join(dir, "bad.arrow"))).toThrowError(expect.objectContaining({ code: "ERR_IO" }));
  });
});
