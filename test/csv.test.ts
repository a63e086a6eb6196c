/**
 * CSV reader and writer: options, quoting, inference and widening, exact round trips, typed
 * errors, the event loop staying free, and csv-parse as the reference on random files.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";

import { DataFrame, Series, fromArrow, readCSV, readCSVSync, type DType } from "../src/index.js";
import { ALL_DTYPES, makeArrowTable, rawValues } from "./helpers.js";
import { Rng } from "./support/random.js";

const dir = mkdtempSync(join(tmpdir(), "gpudf-csv-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const buf = (s: string): Buffer => Buffer.from(s, "utf8");

describe("readCSV: parsing", () => {
  it("header, inference of every kind, nulls from empty fields", () => {
    const df = readCSVSync(buf("i,f,s,b,d,t\n1,1.5,x,true,2024-01-02,2024-01-02 03:04:05.25\n-2,,,False,,\n"), {
      tryParseDates: true,
    });
    expect(df.columns).toEqual(["i", "f", "s", "b", "d", "t"]);
    expect(df.dtypes).toEqual(["int64", "float64", "utf8", "bool", "date32", "timestamp[us]"]);
    expect(df.toRecords()).toEqual([
      { i: 1n, f: 1.5, s: "x", b: true, d: new Date("2024-01-02T00:00:00Z"), t: new Date("2024-01-02T03:04:05.250Z") },
      { i: -2n, f: null, s: null, b: false, d: null, t: null },
    ]);
  });

  it("without tryParseDates, dates stay strings", () => {
    expect(readCSVSync(buf("d\n2024-01-02\n")).dtypes).toEqual(["utf8"]);
  });

  it("LF and CRLF, last line without a newline, BOM", () => {
    for (const text of ["a,b\n1,2\n3,4", "a,b\r\n1,2\r\n3,4\r\n", "\uFEFFa,b\n1,2\n3,4\n"]) {
      const df = readCSVSync(buf(text));
      expect(df.columns).toEqual(["a", "b"]);
      expect(df.toRecords()).toEqual([
        { a: 1n, b: 2n },
        { a: 3n, b: 4n },
      ]);
    }
  });

  it("quoted fields holding separators, doubled quotes and newlines", () => {
    const df = readCSVSync(buf('s,n\n"a,b",1\n"say ""hi""",2\n"line1\nline2",3\n"",4\n,5\n'));
    expect(df.getColumn("s").toArray()).toEqual(["a,b", 'say "hi"', "line1\nline2", "", null]);
    expect(df.getColumn("n").toArray()).toEqual([1n, 2n, 3n, 4n, 5n]);
  });

  it("a header-only file has zero rows and named utf8 columns", () => {
    const df = readCSVSync(buf("a,b,c\n"));
    expect(df.shape).toEqual([0, 3]);
    expect(df.columns).toEqual(["a", "b", "c"]);
    expect(df.dtypes).toEqual(["utf8", "utf8", "utf8"]);
  });

  it("an empty input is an empty frame", () => {
    expect(readCSVSync(buf("")).shape).toEqual([0, 0]);
  });

  it("hasHeader false names columns column_1..", () => {
    const df = readCSVSync(buf("1,x\n2,y\n"), { hasHeader: false });
    expect(df.columns).toEqual(["column_1", "column_2"]);
    expect(df.height).toBe(2);
  });

  it("sep, quoteChar, commentPrefix, skipRows, nRows", () => {
    const df = readCSVSync(buf("junk line\n# comment\na;b\n'x;y';1\n# another\n'z';2\n'w';3\n"), {
      sep: ";",
      quoteChar: "'",
      commentPrefix: "#",
      skipRows: 1,
      nRows: 2,
    });
    expect(df.toRecords()).toEqual([
      { a: "x;y", b: 1n },
      { a: "z", b: 2n },
    ]);
  });

  it("columns by name (in that order) and by index", () => {
    const text = "a,b,c\n1,2,3\n";
    expect(readCSVSync(buf(text), { columns: ["c", "a"] }).toRecords()).toEqual([{ c: 3n, a: 1n }]);
    expect(readCSVSync(buf(text), { columns: [1] }).toRecords()).toEqual([{ b: 2n }]);
    expect(() => readCSVSync(buf(text), { columns: ["zz"] })).toThrow(expect.objectContaining({ code: "ERR_COLUMN_NOT_FOUND" }));
  });

  it("dtypes override inference, by name and by position", () => {
    const text = "a,b,c\n1,2,2024-01-02\n-3,4,2024-02-03T04:05:06.123456789\n";
    const df = readCSVSync(buf(text), { dtypes: { a: "int8", b: "float32", c: "timestamp[ns]" } });
    expect(df.dtypes).toEqual(["int8", "float32", "timestamp[ns]"]);
    expect(rawValues(df.getColumn("c").toArrow())[1]).toBe(1706933106123456789n);
    const byPos = readCSVSync(buf(text), { dtypes: ["int16", "utf8"] });
    expect(byPos.dtypes).toEqual(["int16", "utf8", "utf8"]);
    expect(byPos.getColumn("b").toArray()).toEqual(["2", "4"]);
  });

  it("timestamps at the ends of int64 round-trip; text beyond a unit's range is refused or stays text", () => {
    // The first and last second of timestamp[s], as writeCSV writes them.
    const ends = "t\n-292277022657-01-27T08:29:52\n292277026596-12-04T15:30:07\n";
    const s = readCSVSync(buf(ends), { dtypes: { t: "timestamp[s]" } });
    expect(rawValues(s.getColumn("t").toArrow())).toEqual([-(2n ** 63n), 2n ** 63n - 1n]);
    expect(readCSVSync(buf(s.writeCSVSync())).getColumn("t").toArray()).toEqual(ends.trim().split("\n").slice(1));
    // One second further is outside int64 in any unit; inference keeps such text as text.
    expect(() => readCSVSync(buf("t\n292277026596-12-04T15:30:08\n"), { dtypes: { t: "timestamp[s]" } })).toThrow(expect.objectContaining({ code: "ERR_CSV_PARSE" }));
    expect(readCSVSync(buf(ends)).dtypes).toEqual(["utf8"]);
    // The earliest nanosecond parses; 2262-04-12 is past the last one.
    const ns = readCSVSync(buf("t\n1677-09-21T00:12:43.145224192\n"), { dtypes: { t: "timestamp[ns]" } });
    expect(rawValues(ns.getColumn("t").toArrow())).toEqual([-(2n ** 63n)]);
    expect(() => readCSVSync(buf("t\n2262-04-12T00:00:00\n"), { dtypes: { t: "timestamp[ns]" } })).toThrow(expect.objectContaining({ code: "ERR_CSV_PARSE" }));
  });

  it("nullValues, trueValues, falseValues", () => {
    const df = readCSVSync(buf('a,b\nNA,yes\n1,no\n"NA",yes\n'), {
      nullValues: ["NA"],
      trueValues: ["yes"],
      falseValues: ["no"],
      dtypes: { a: "utf8" },
    });
    expect(df.getColumn("a").toArray()).toEqual([null, "1", "NA"]);
    expect(df.getColumn("b").toArray()).toEqual([true, false, true]);
  });

  it("widens a type a later value breaks: int64 -> float64 -> utf8", () => {
    const ints = Array.from({ length: 150 }, (_, i) => String(i));
    const f = readCSVSync(buf(["v", ...ints, "2.5"].join("\n")));
    expect(f.dtypes).toEqual(["float64"]);
    expect(f.getColumn("v").toArray().slice(-2)).toEqual([149, 2.5]);
    const s = readCSVSync(buf(["v", ...ints, "2.5", "abc"].join("\n")), { inferSchemaLength: 10 });
    expect(s.dtypes).toEqual(["utf8"]);
    expect(s.getColumn("v").toArray().slice(-3)).toEqual(["149", "2.5", "abc"]);
  });

  it("large_utf8 by dtypes keeps 64-bit offsets; strings with nulls across many parse tasks, from a file", () => {
    const rows = Array.from({ length: 20_011 }, (_, i) => (i % 7 === 0 ? "" : `v${i}é`));
    const text = ["s,t", ...rows.map((r, i) => `${r},${i % 3 === 0 ? "" : "x".repeat(i % 5)}`)].join("\n");
    const want = rows.map((r) => (r === "" ? null : r));
    const big = readCSVSync(buf(text), { dtypes: { s: "large_utf8" } });
    expect(big.dtypes).toEqual(["large_utf8", "utf8"]);
    expect(big.getColumn("s").toArray()).toEqual(want);
    const dir = mkdtempSync(join(tmpdir(), "gpudf-csv-"));
    const path = join(dir, "strings.csv");
    writeFileSync(path, text);
    const fromFile = readCSVSync(path);
    expect(fromFile.getColumn("s").toArray()).toEqual(want);
    expect(fromFile.getColumn("t").toArray()).toEqual(rows.map((_, i) => (i % 3 === 0 ? null : "x".repeat(i % 5) || null)));
    rmSync(dir, { recursive: true });
  });

  it("int64 beyond 2^53 stays exact", () => {
    const df = readCSVSync(buf("a\n9007199254740993\n-9223372036854775808\n9223372036854775807\n"));
    expect(df.getColumn("a").toArray()).toEqual([9007199254740993n, -(2n ** 63n), 2n ** 63n - 1n]);
    // One past int64 is not an int64: the column becomes float64.
    expect(readCSVSync(buf("a\n9223372036854775808\n")).dtypes).toEqual(["float64"]);
  });

  it("non-ASCII text, NaN and infinities", () => {
    const df = readCSVSync(buf("s,f\nhéllo,NaN\n日本語,inf\n🦀,-Infinity\n"));
    expect(df.getColumn("s").toArray()).toEqual(["héllo", "日本語", "🦀"]);
    const f = df.getColumn("f").toArray() as number[];
    expect(Number.isNaN(f[0])).toBe(true);
    expect(f.slice(1)).toEqual([Infinity, -Infinity]);
  });

  it("truncateRaggedLines pads short rows with nulls and cuts long ones", () => {
    const df = readCSVSync(buf("a,b\n1\n2,3,4\n"), { truncateRaggedLines: true });
    expect(df.toRecords()).toEqual([
      { a: 1n, b: null },
      { a: 2n, b: 3n },
    ]);
  });

  it("reads a file path, async and sync, and multi-block inputs", async () => {
    const rows = 100_003;
    const lines = ["k,v"];
    for (let i = 0; i < rows; i++) lines.push(`${i % 97},${i}.5`);
    const path = join(dir, "big.csv");
    writeFileSync(path, lines.join("\n"));
    const df = await readCSV(path);
    expect(df.shape).toEqual([rows, 2]);
    const v = df.getColumn("v");
    expect(v.slice(rows - 2).toArray()).toEqual([100001.5, 100002.5]);
    expect(readCSVSync(path).height).toBe(rows);
  });
});

describe("readCSV: errors", () => {
  const code = (c: string) => expect.objectContaining({ code: c });

  it("wrong field count names the line", () => {
    expect(() => readCSVSync(buf("a,b\n1,2\n3\n"))).toThrow(/line 3/);
    expect(() => readCSVSync(buf("a,b\n1,2\n3\n"))).toThrow(code("ERR_CSV_PARSE"));
  });

  it("unterminated quote names its line", () => {
    expect(() => readCSVSync(buf('a,b\n1,2\n3,"open\n4,5\n'))).toThrow(/unterminated.*line 3/);
  });

  it("a dtypes value that does not parse names line and column", () => {
    expect(() => readCSVSync(buf("a,b\n1,2\n3,x\n"), { dtypes: { b: "int32" } })).toThrow(/line 3, column 2 \("b"\)/);
    expect(() => readCSVSync(buf("a\n300\n"), { dtypes: { a: "int8" } })).toThrow(code("ERR_CSV_PARSE"));
  });

  it("a missing file is ERR_IO; async rejects with the same error", async () => {
    expect(() => readCSVSync(join(dir, "missing.csv"))).toThrow(code("ERR_IO"));
    await expect(readCSV(join(dir, "missing.csv"))).rejects.toMatchObject({ code: "ERR_IO" });
  });

  it("bad options are ERR_INVALID_ARGUMENT / ERR_DTYPE", () => {
    expect(() => readCSVSync(buf("a\n1\n"), { sep: ";;" })).toThrow(code("ERR_INVALID_ARGUMENT"));
    expect(() => readCSVSync(buf("a\n1\n"), { skipRows: -1 })).toThrow(code("ERR_INVALID_ARGUMENT"));
    // @ts-expect-error: checking the runtime validation
    expect(() => readCSVSync(buf("a\n1\n"), { dtypes: { a: "int128" } })).toThrow(code("ERR_DTYPE"));
    // @ts-expect-error: checking the runtime validation
    expect(() => readCSVSync(buf("a\n1\n"), { encoding: "latin1" })).toThrow(code("ERR_INVALID_ARGUMENT"));
  });
});

describe("readCSV: off the JS thread", () => {
  it("timers keep firing while a large file parses, and progress reaches the total", async () => {
    const lines = ["a,b,c"];
    for (let i = 0; i < 400_000; i++) lines.push(`${i},name${i % 13},${i / 3}`);
    const path = join(dir, "slow.csv");
    writeFileSync(path, lines.join("\n"));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const progress: [number, number][] = [];
    const df = await readCSV(path, { onProgress: (done, total) => progress.push([done, total]) });
    clearInterval(timer);
    expect(df.height).toBe(400_000);
    expect(ticks).toBeGreaterThan(0);
    const last = progress[progress.length - 1]!;
    expect(last[0]).toBe(last[1]);
    for (let i = 1; i < progress.length; i++) expect(progress[i]![0]).toBeGreaterThanOrEqual(progress[i - 1]![0]);
  });
});

describe("writeCSV", () => {
  it("resolves with the text when no path is given; quoting where needed; nulls vs empty strings", async () => {
    const df = new DataFrame({ s: ["x", "", null, 'q"', "a,b", "l\nm"], n: [1, 2, 3, 4, 5, 6] });
    const text = 's,n\nx,1\n"",2\n,3\n"q""",4\n"a,b",5\n"l\nm",6\n';
    const pending = df.writeCSV();
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toBe(text);
    expect(df.writeCSVSync()).toBe(text);
  });

  it("options: sep, header, quoteStyle, nullValue", async () => {
    const df = new DataFrame({ s: ["x", null], n: [1.5, null] });
    expect(await df.writeCSV(undefined, { sep: ";", header: false, nullValue: "NA" })).toBe("x;1.5\nNA;NA\n");
    expect(await df.writeCSV(undefined, { quoteStyle: "always" })).toBe('"s","n"\n"x",1.5\n,\n');
    expect(df.writeCSVSync(undefined, { quoteStyle: "always" })).toBe('"s","n"\n"x",1.5\n,\n');
    // @ts-expect-error: checking the runtime validation
    await expect(df.writeCSV(undefined, { quoteStyle: "sometimes" })).rejects.toMatchObject({ code: "ERR_INVALID_ARGUMENT" });
    // @ts-expect-error: an unknown option
    await expect(df.writeCSV(undefined, { seperator: ";" })).rejects.toMatchObject({ code: "ERR_INVALID_ARGUMENT" });
    // @ts-expect-error: an unknown option
    expect(() => df.writeCSVSync("x.csv", { headers: false })).toThrow(/unknown option "headers" \(did you mean "header"\?\)/);
  });

  it("writes off the JS thread: timers run while a large frame is written", async () => {
    const n = 600_000;
    const df = new DataFrame({ x: Float64Array.from({ length: n }, (_, i) => Math.sin(i) * 1e6), s: Array.from({ length: n }, (_, i) => `row ${i}`) });
    const path = join(dir, "big.csv");
    // A write that blocked the event loop would let no timer run before its promise settled; one
    // off the JS thread lets them run meanwhile. (How many run depends on the machine's load, so
    // only whether one ran while the write was in progress is checked.)
    let writing = true;
    let ticksWhileWriting = 0;
    const timer = setInterval(() => {
      if (writing) ticksWhileWriting++;
    }, 1);
    await df.writeCSV(path).finally(() => (writing = false));
    clearInterval(timer);
    expect(ticksWhileWriting).toBeGreaterThan(0);
    const back = readCSVSync(path);
    expect(back.height).toBe(n);
    expect(back.tail(1).toRecords()).toEqual([{ x: Math.sin(n - 1) * 1e6, s: `row ${n - 1}` }]);
  });

  it("round trip through readCSV is exact for every dtype, nulls included (given the schema)", async () => {
    for (const nulls of ["none", "some", "all"] as const) {
      const df = fromArrow(makeArrowTable(65, nulls)).slice(3, 60);
      const path = join(dir, `rt-${nulls}.csv`);
      await df.writeCSV(path);
      const back = readCSVSync(path, { dtypes: df.schema });
      expect(back.dtypes).toEqual(df.dtypes);
      const a = back.toArrow();
      const b = df.toArrow();
      for (const name of ALL_DTYPES) expect(rawValues(a.getChild(name)!), `${name} ${nulls}`).toEqual(rawValues(b.getChild(name)!));
    }
  });

  it("an unwritable path is ERR_IO and leaves a file it could not replace as it was", async () => {
    const df = new DataFrame({ a: [1] });
    await expect(df.writeCSV(join(dir, "no-such-dir", "x.csv"))).rejects.toMatchObject({ code: "ERR_IO" });
    expect(() => df.writeCSVSync(join(dir, "no-such-dir", "x.csv"))).toThrow(expect.objectContaining({ code: "ERR_IO" }));
  });
});

describe("readCSV options", () => {
  it("rejects unknown option keys, naming the nearest", async () => {
    const csv = Buffer.from("a;b\n1;2\n");
    // @ts-expect-error: a misspelt option
    await expect(readCSV(csv, { seperator: ";" })).rejects.toMatchObject({ code: "ERR_INVALID_ARGUMENT" });
    // @ts-expect-error: a misspelt option
    expect(() => readCSVSync(csv, { hasheader: false })).toThrow(/readCSVSync: unknown option "hasheader" \(did you mean "hasHeader"\?\)/);
    expect(readCSVSync(csv, { sep: ";" }).toRecords()).toEqual([{ a: 1n, b: 2n }]);
  });
});

describe("differential: csv-parse as the reference", () => {
  const PIECES = ["a", "b", "héllo", "日本", "🦀", ",", '"', "\n", "\r\n", " ", "x,y", "", "1", "-2.5"];
  for (const seed of [11, 12, 13, 14]) {
    it(`seed ${seed}: random CSV with quotes, separators, newlines and unicode agrees cell by cell`, () => {
      const rng = new Rng(seed);
      const ncols = rng.int(1, 6);
      const nrows = rng.int(1, 300);
      const cells: string[][] = [];
      for (let r = 0; r < nrows; r++) {
        const row: string[] = [];
        for (let c = 0; c < ncols; c++) {
          let s = "";
          const n = rng.int(0, 3);
          for (let k = 0; k < n; k++) s += rng.pick(PIECES);
          row.push(s);
        }
        cells.push(row);
      }
      // Quote every field holding something special; leave others bare (empty bare = null).
      const field = (s: string): string => (/[",\r\n]/.test(s) || rng.next() < 0.2 ? `"${s.replaceAll('"', '""')}"` : s);
      const header = Array.from({ length: ncols }, (_, c) => `c${c}`);
      const text = [header.join(","), ...cells.map((row) => row.map(field).join(","))].join("\n") + "\n";
      const reference = parse(text, { columns: false, relax_column_count: false, skip_empty_lines: false }) as string[][];
      const dtypes = Object.fromEntries(header.map((h) => [h, "utf8" as DType]));
      const df = readCSVSync(buf(text), { dtypes });
      expect(df.shape).toEqual([reference.length - 1, ncols]);
      const got = df.toRecords();
      reference.slice(1).forEach((row, r) => {
        row.forEach((value, c) => {
          const cell = got[r]![`c${c}`];
          // An unquoted empty field is null in gpudf; csv-parse gives "".
          expect(cell === null ? "" : cell, `row ${r} col ${c}`).toBe(value);
        });
      });
    });
  }
});

describe("row splitting across parallel chunks (1 MiB and up)", () => {
  it("a quoted field longer than a chunk, quote-free chunks, CRLF, empty lines, no final newline", () => {
    const plain = (from: number, n: number) => Array.from({ length: n }, (_, i) => `${from + i},plain${i % 97},${(i * 0.5).toFixed(1)}`);
    const longField = `"${"line of text, with a comma\n".repeat(100_000)}end"`; // ~2.8 MB, no quote inside
    const text = [
      "id,s,v",
      ...plain(0, 30_000),
      `30000,${longField},1.5`,
      "",
      ...plain(30_001, 30_000).map((l, i) => (i % 1000 === 0 ? `${l}\r` : l)),
      '60001,"quoted ""twice"" here",2.5',
      "60002,last,3.5",
    ].join("\n");
    const reference = parse(text, { columns: false, skip_empty_lines: true }) as string[][];
    const df = readCSVSync(buf(text), { dtypes: { id: "int64", s: "utf8", v: "float64" } });
    expect(df.height).toBe(reference.length - 1);
    expect(df.height).toBe(60_003);
    const ids = df.getColumn("id").toArray();
    const strs = df.getColumn("s").toArray();
    const vs = df.getColumn("v").toArray();
    reference.slice(1).forEach((row, r) => {
      if (ids[r] !== BigInt(row[0]!) || strs[r] !== row[1] || vs[r] !== Number(row[2])) {
        expect([r, ids[r], strs[r], vs[r]]).toEqual([r, BigInt(row[0]!), row[1], Number(row[2])]);
      }
    });
    expect((strs[30_000] as string).length).toBe("line of text, with a comma\n".length * 100_000 + 3);
  });
});

describe("readCSV with Series and frames built from it", () => {
  it("a frame read from CSV behaves like any other (slice, withColumn, dispose)", () => {
    const df = readCSVSync(buf("a,b\n1,x\n2,y\n3,z\n"));
    const more = df.slice(1).withColumn(new Series("c", [true, false]));
    expect(more.toRecords()).toEqual([
      { a: 2n, b: "y", c: true },
      { a: 3n, b: "z", c: false },
    ]);
    df.dispose();
    expect(more.height).toBe(2);
  });
});
