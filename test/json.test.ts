// JSON and NDJSON reading: inference, escapes, options, sources, errors, against DuckDB's
// read_json and nodejs-polars' readJSON on a random file (also written back), a buffer detached
// mid-parse, and scanNDJSON with its projection pushed into the reader. Writing: json_write.test.ts.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import pl from "nodejs-polars";
import { afterAll, describe, expect, it } from "vitest";

import {
  col,
  DataFrame,
  readJSON,
  readJSONSync,
  readNDJSON,
  readNDJSONSync,
  scanNDJSON,
  writeNDJSON,
} from "../src/index.js";
import { duckdbConnection, duckdbRows } from "./support/duckdb.js";
import { Rng } from "./support/random.js";

const dir = mkdtempSync(join(tmpdir(), "gpudf-json-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nd = (text: string, options = {}) => readNDJSONSync(Buffer.from(text), options);
const rows = (df: DataFrame) => {
  try {
    return df.toRecords();
  } finally {
    df.dispose();
  }
};

/** The error a call throws (it must throw). */
function errorOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error("expected an error");
}

describe("readNDJSON: values and inferred dtypes", () => {
  it("bool, int64, float64, utf8; a missing key and null are null", () => {
    const df = nd('{"b":true,"i":1,"f":1.5,"s":"x"}\n{"b":false,"i":null,"f":-2e3}\n{"i":-7,"s":null,"f":0.25}\n');
    expect(df.schema).toEqual({ b: "bool", i: "int64", f: "float64", s: "utf8" });
    expect(rows(df)).toEqual([
      { b: true, i: 1n, f: 1.5, s: "x" },
      { b: false, i: null, f: -2000, s: null },
      { b: null, i: -7n, f: 0.25, s: null },
    ]);
  });

  it("int mixed with float is float64; integers past int64 are float64", () => {
    const df = nd('{"a":1,"big":9223372036854775807}\n{"a":2.5,"big":9223372036854775808}\n');
    expect(df.schema).toEqual({ a: "float64", big: "float64" });
    expect(rows(df)).toEqual([
      { a: 1, big: 9223372036854775807 },
      { a: 2.5, big: 9223372036854775808 },
    ]);
    const exact = nd('{"m":-9223372036854775808}\n');
    expect(exact.schema).toEqual({ m: "int64" });
    expect(rows(exact)).toEqual([{ m: -9223372036854775808n }]);
  });

  it("strings mixed with numbers or booleans, and booleans mixed with numbers, are utf8 holding the JSON text", () => {
    const df = nd('{"a":"x","b":true,"c":1}\n{"a":1.50,"b":2,"c":"2"}\n{"a":-3,"b":null,"c":false}\n');
    expect(df.schema).toEqual({ a: "utf8", b: "utf8", c: "utf8" });
    expect(rows(df)).toEqual([
      { a: "x", b: "true", c: "1" },
      { a: "1.50", b: "2", c: "2" },
      { a: "-3", b: null, c: "false" },
    ]);
  });

  it("a column of only nulls is utf8; a key first seen late is null before; columns in first-seen order", () => {
    const df = nd('{"n":null,"a":1}\n{"a":2}\n{"late":"z","a":3,"n":null}\n');
    expect(df.schema).toEqual({ n: "utf8", a: "int64", late: "utf8" });
    expect(rows(df)).toEqual([
      { n: null, a: 1n, late: null },
      { n: null, a: 2n, late: null },
      { n: null, a: 3n, late: "z" },
    ]);
  });

  it("blank lines, CRLF line ends and spaces are skipped; an empty input or {} records give what they hold", () => {
    expect(rows(nd('\n  \n{ "a" : 1 }\r\n\r\n\t{"a":2}  \n\n'))).toEqual([{ a: 1n }, { a: 2n }]);
    const empty = nd("");
    expect([empty.height, empty.width]).toEqual([0, 0]);
    empty.dispose();
    const objs = nd("{}\n{}\n{\"a\":1}\n");
    expect(rows(objs)).toEqual([{ a: null }, { a: null }, { a: 1n }]);
  });

  it("a view into a larger buffer reads only its bytes", async () => {
    const whole = Buffer.from('xx{"a":1}\n{"a":2}\nyy');
    expect(rows(readNDJSONSync(whole.subarray(2, whole.length - 2)))).toEqual([{ a: 1n }, { a: 2n }]);
    expect(rows(await readNDJSON(new Uint8Array(whole.buffer, whole.byteOffset + 2, whole.length - 4)))).toEqual([{ a: 1n }, { a: 2n }]);
  });

  it("a key repeated in a record: the last value counts", () => {
    expect(rows(nd('{"a":1,"a":2}\n'))).toEqual([{ a: 2n }]);
  });
});

describe("strings: escapes and UTF-8", () => {
  it("unescapes every escape, \\u with surrogate pairs; raw UTF-8 passes through", () => {
    const line = String.raw`{"s":"q\" b\\ s\/ \b\f\n\r\t \u00e9\u4e2d \ud83d\ude00 \u0000end","raw":"héllo 中 😀"}`;
    expect(rows(nd(`${line}\n`))).toEqual([{ s: 'q" b\\ s/ \b\f\n\r\t é中 😀 \u0000end', raw: "héllo 中 😀" }]);
  });

  it("keys are unescaped too", () => {
    expect(nd(String.raw`{"\u0041b":1}` + "\n").columns).toEqual(["Ab"]);
  });

  it("invalid escapes, lone surrogates, raw control characters and invalid UTF-8 are ERR_JSON_PARSE naming the line", () => {
    const cases: [string | Buffer, RegExp][] = [
      ['{"a":1}\n{"s":"bad \\x"}\n', /line 2 .*invalid escape '\\x'/],
      ['{"s":"\\ud83d"}\n', /line 1 .*high surrogate without a low one/],
      ['{"s":"\\ude00"}\n', /low surrogate without a high one/],
      ['{"s":"\\u12G4"}\n', /invalid \\u escape/],
      ['{"s":"tab\there"}\n', /control character/],
      [Buffer.concat([Buffer.from('{"a":1}\n{"a":1}\n{"s":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]), /line 3 .*invalid UTF-8/],
      [Buffer.concat([Buffer.from('{"s":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}\n')]), /invalid UTF-8/],
      [Buffer.concat([Buffer.from('{"s":"'), Buffer.from([0xc0, 0x80]), Buffer.from('"}\n')]), /invalid UTF-8/],
    ];
    for (const [text, re] of cases) {
      const e = errorOf(() => readNDJSONSync(typeof text === "string" ? Buffer.from(text) : text));
      expect(e.code).toBe("ERR_JSON_PARSE");
      expect(e.message).toMatch(re);
    }
  });
});

describe("malformed input: typed errors with the line, never a crash", () => {
  it.each([
    ['{"a":1}\n{"a":', /line 2 .*unexpected end of input/],
    ['{"a":1}\n{"a":2\n', /line 2 .*unexpected end of input inside a record/],
    ['{"a":1} x\n', /line 1 .*trailing characters after the record/],
    ['{"a":1}{"a":2}\n', /trailing characters/],
    ['{"a":1,}\n', /expected a member name/],
    ['{"a" 1}\n', /expected ':'/],
    ['{"a":1 "b":2}\n', /expected ',' or '}'/],
    ['{a:1}\n', /expected a member name/],
    ['[1,2]\n', /expected '\{'/],
    ['{"a":01}\n', /expected ',' or '}'/],
    ['{"a":1.}\n', /a digit must follow '.'/],
    ['{"a":-}\n', /invalid number/],
    ['{"a":tru}\n', /invalid literal/],
    ['{"a":NaN}\n', /invalid literal|invalid number/],
    ['{"a":"open}\n', /unterminated string/],
    ['{"a":1}\n\n\n{"a":@}\n', /line 4 /],
  ])("%j", (text, re) => {
    const e = errorOf(() => nd(text));
    expect(e.code).toBe("ERR_JSON_PARSE");
    expect(e.message).toMatch(re);
  });

  it("a nested value of a column read is ERR_DTYPE naming the column; of a column left out it is skipped", () => {
    const text = '{"a":1,"o":{"x":[1,{"y":"}"}]},"l":[1,2]}\n{"a":2,"o":null,"l":[]}\n';
    const e = errorOf(() => nd(text));
    expect(e.code).toBe("ERR_DTYPE");
    expect(e.message).toMatch(/column "o" holds a nested value .*line 1/);
    expect(errorOf(() => nd(text, { columns: ["a", "l"] })).message).toMatch(/column "l"/);
    expect(rows(nd(text, { columns: ["a"] }))).toEqual([{ a: 1n }, { a: 2n }]);
    // A skipped nested value must still be well formed.
    expect(errorOf(() => nd('{"a":1,"o":{"x":[1,}}\n', { columns: ["a"] })).code).toBe("ERR_JSON_PARSE");
  });

  it("readJSON: not an array, truncated, trailing garbage after the array", () => {
    for (const [text, re] of [
      ['{"a":1}', /expected '\['/],
      ['[{"a":1},', /unexpected end of input/],
      ['[{"a":1}', /expected ',' or '\]'/],
      ['[{"a":1}] [', /trailing characters after the array/],
      ['[{"a":1},]', /expected '\{'/],
    ] as const) {
      const e = errorOf(() => readJSONSync(Buffer.from(text)));
      expect(e.code).toBe("ERR_JSON_PARSE");
      expect(e.message).toMatch(re);
    }
  });

  it("the error of an async read is the same typed error", async () => {
    await expect(readNDJSON(Buffer.from('{"a":1}\n{"a":}\n'))).rejects.toMatchObject({ code: "ERR_JSON_PARSE", message: expect.stringMatching(/line 2/) });
  });
});

describe("readJSON: a top-level array of records", () => {
  it("values, dtypes and nulls as readNDJSON; line breaks anywhere", async () => {
    const text = '[\n  {"a": 1, "b": "x"},\n  {"a": 2.5,\n   "c": true},\n  {}\n]\n';
    const df = await readJSON(Buffer.from(text));
    expect(df.schema).toEqual({ a: "float64", b: "utf8", c: "bool" });
    expect(rows(df)).toEqual([
      { a: 1, b: "x", c: null },
      { a: 2.5, b: null, c: true },
      { a: null, b: null, c: null },
    ]);
    const empty = readJSONSync(Buffer.from(" [ ] "));
    expect(empty.height).toBe(0);
    empty.dispose();
  });

  it("a wrong value names its line", () => {
    const e = errorOf(() => readJSONSync(Buffer.from('[\n{"a":1},\n{"a":"x"}\n]'), { dtypes: { a: "int64" } }));
    expect(e.code).toBe("ERR_JSON_PARSE");
    expect(e.message).toMatch(/line 3, column "a": "x" is not a valid int64/);
  });
});

describe("options", () => {
  const text = '{"id":1,"day":"2024-02-29","ts":"2024-01-02T03:04:05.5","s":"a","x":1}\n{"id":2,"day":null,"ts":"2024-01-02","s":"b"}\n';

  it("columns: only these, in this order; an unknown name is ERR_COLUMN_NOT_FOUND", () => {
    expect(rows(nd(text, { columns: ["s", "id"] }))).toEqual([
      { s: "a", id: 1n },
      { s: "b", id: 2n },
    ]);
    expect(errorOf(() => nd(text, { columns: ["nope"] })).code).toBe("ERR_COLUMN_NOT_FOUND");
  });

  it("dtypes override some columns (dates and timestamps from strings); schema fixes all of them", () => {
    const df = nd(text, { dtypes: { id: "int32", day: "date32", ts: "timestamp[ms]" } });
    expect(df.schema).toEqual({ id: "int32", day: "date32", ts: "timestamp[ms]", s: "utf8", x: "int64" });
    expect(df.getColumn("ts").cast("int64").toArray()).toEqual([1704164645500n, 1704153600000n]);
    expect(df.getColumn("day").cast("int32").toArray()).toEqual([19782, null]);
    df.dispose();
    const exact = nd(text, { schema: { x: "float32", missing: "bool", id: "uint8", s: "large_utf8" } });
    expect(exact.schema).toEqual({ x: "float32", missing: "bool", id: "uint8", s: "large_utf8" });
    expect(rows(exact)).toEqual([
      { x: 1, missing: null, id: 1, s: "a" },
      { x: null, missing: null, id: 2, s: "b" },
    ]);
  });

  it("a value its dtype cannot hold is ERR_JSON_PARSE naming line, column and value", () => {
    const e = errorOf(() => nd('{"a":1}\n{"a":300}\n', { dtypes: { a: "int8" } }));
    expect(e.code).toBe("ERR_JSON_PARSE");
    expect(e.message).toMatch(/line 2, column "a": 300 is not a valid int8/);
    expect(errorOf(() => nd('{"a":1.5}\n', { dtypes: { a: "int64" } })).message).toMatch(/1.5 is not a valid int64/);
    expect(errorOf(() => nd('{"a":"2024-13-01"}\n', { dtypes: { a: "date32" } })).message).toMatch(/"2024-13-01" is not a valid date32/);
    expect(errorOf(() => nd('{"a":1}\n', { dtypes: { zz: "int64" } })).code).toBe("ERR_COLUMN_NOT_FOUND");
  });

  it("utf8 dtype keeps any scalar's text", () => {
    expect(rows(nd('{"a":1}\n{"a":2.50}\n{"a":true}\n', { dtypes: { a: "utf8" } }))).toEqual([{ a: "1" }, { a: "2.50" }, { a: "true" }]);
  });

  it("nRows and rowIndex", async () => {
    expect(rows(nd(text, { nRows: 1, columns: ["id"] }))).toEqual([{ id: 1n }]);
    // Records past nRows are not parsed at all.
    expect(rows(nd('{"a":1}\n{"a":2}\n{broken\n', { nRows: 2 }))).toEqual([{ a: 1n }, { a: 2n }]);
    const df = await readNDJSON(Buffer.from(text), { columns: ["s"], rowIndex: { name: "r", offset: 10 } });
    expect(df.schema).toEqual({ r: "int64", s: "utf8" });
    expect(rows(df)).toEqual([
      { r: 10n, s: "a" },
      { r: 11n, s: "b" },
    ]);
    expect(rows(nd(text, { columns: ["id"], rowIndex: "i" }))).toEqual([
      { i: 0n, id: 1n },
      { i: 1n, id: 2n },
    ]);
  });

  it("unknown and malformed options are ERR_INVALID_ARGUMENT", () => {
    for (const options of [{ colums: ["a"] }, { nRows: -1 }, { columns: "a" }, { schema: { a: "int64" }, columns: ["a"] }, { rowIndex: "" }, { dtypes: { a: "int65" } }, { inferSchemaLength: 1.5 }]) {
      const e = errorOf(() => nd('{"a":1}\n', options));
      expect(["ERR_INVALID_ARGUMENT", "ERR_DTYPE"]).toContain(e.code);
    }
    expect(errorOf(() => nd('{"a":1}\n', { colums: ["a"] })).message).toMatch(/unknown option "colums" \(did you mean "columns"\?\)/);
    expect(errorOf(() => readNDJSONSync(42 as unknown as string)).code).toBe("ERR_INVALID_ARGUMENT");
  });
});

describe("sources: paths, lists and globs", () => {
  it("files read as one frame, their keys unified; a missing file is ERR_IO", async () => {
    const sub = join(dir, "many");
    mkdirSync(sub);
    writeFileSync(join(sub, "a.ndjson"), '{"k":1,"v":"x"}\n');
    writeFileSync(join(sub, "b.ndjson"), '{"k":2.5,"w":true}\n{"k":3}\n');
    const want = [
      { k: 1, v: "x", w: null },
      { k: 2.5, v: null, w: true },
      { k: 3, v: null, w: null },
    ];
    expect(rows(await readNDJSON(join(sub, "*.ndjson")))).toEqual(want);
    expect(rows(readNDJSONSync([join(sub, "a.ndjson"), join(sub, "b.ndjson")]))).toEqual(want);
    expect(rows(readNDJSONSync([join(sub, "a.ndjson"), join(sub, "b.ndjson")], { nRows: 2 }))).toEqual(want.slice(0, 2));
    const e = errorOf(() => readNDJSONSync([join(sub, "a.ndjson"), join(sub, "b.ndjson")], { dtypes: { k: "int64" } }));
    expect(e.message).toMatch(/b\.ndjson: line 1, column "k": 2.5 is not a valid int64/);
    expect(errorOf(() => readNDJSONSync(join(dir, "absent.ndjson"))).code).toBe("ERR_IO");
    await expect(readJSON(join(dir, "absent.json"))).rejects.toMatchObject({ code: "ERR_IO" });
  });

  it("a large NDJSON input parsed in parallel chunks gives every row in order; an error deep in it names its line", async () => {
    const n = 120_000;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(i % 7 === 0 ? `{"i":${i}}` : `{"i":${i},"s":"v${i % 13}\\u00e9","f":${i / 4}}`);
    const text = `${lines.join("\n")}\n`;
    expect(text.length).toBeGreaterThan(4 << 20);
    const df = await readNDJSON(Buffer.from(text));
    expect(df.schema).toEqual({ i: "int64", s: "utf8", f: "float64" });
    expect(df.height).toBe(n);
    expect(df.getColumn("i").sum()).toBe(BigInt((n * (n - 1)) / 2));
    expect(df.getColumn("s").nullCount).toBe(Math.ceil(n / 7));
    expect(df.slice(99_999, 2).toRecords()).toEqual([
      { i: 99_999n, s: `v${99_999 % 13}é`, f: 99_999 / 4 },
      { i: 100_000n, s: `v${100_000 % 13}é`, f: 25_000 },
    ]);
    df.dispose();
    lines[100_000] = '{"i":1,,}';
    const e = errorOf(() => readNDJSONSync(Buffer.from(lines.join("\n"))));
    expect(e.message).toMatch(/^line 100001 /);
  });
});

describe("against DuckDB read_json and nodejs-polars readJSON on a random file", () => {
  const rng = new Rng(20261203);
  const n = 3000;
  const chars = ["a", "é", "中", "😀", '"', "\\", "\n", "\t", "/", " ", "\u0001"];
  const lines: string[] = [];
  const want: Record<string, unknown>[] = [];
  for (let r = 0; r < n; r++) {
    const rec: Record<string, unknown> = {};
    if (rng.next() < 0.9) rec.i = rng.next() < 0.1 ? null : rng.int(-1e9, 1e9);
    if (rng.next() < 0.9) rec.f = rng.next() < 0.1 ? null : (rng.next() - 0.5) * 10 ** rng.int(-5, 12);
    if (rng.next() < 0.9) rec.b = rng.next() < 0.1 ? null : rng.next() < 0.5;
    if (rng.next() < 0.9) rec.s = rng.next() < 0.1 ? null : Array.from({ length: rng.int(0, 8) }, () => rng.pick(chars)).join("");
    // JSON.stringify writes 1.0 as 1: an int in a float column, which joins to float64.
    lines.push(JSON.stringify(rec));
    want.push({ i: rec.i === undefined || rec.i === null ? null : BigInt(rec.i as number), f: rec.f ?? null, b: rec.b ?? null, s: rec.s ?? null });
  }
  const path = join(dir, "random.ndjson");
  writeFileSync(path, `${lines.join("\n")}\n`);

  it("gpudf reads what JSON.stringify wrote", async () => {
    const df = await readNDJSON(path);
    expect(df.schema).toEqual({ i: "int64", f: "float64", b: "bool", s: "utf8" });
    expect(rows(df)).toEqual(want);
  });

  it("DuckDB's read_json gives the same rows", async () => {
    const conn = await duckdbConnection();
    const got = await duckdbRows(
      conn,
      `SELECT i, f, b, s FROM read_json('${path}', format = 'newline_delimited', columns = {i: 'BIGINT', f: 'DOUBLE', b: 'BOOLEAN', s: 'VARCHAR'})`,
    );
    const df = readNDJSONSync(path);
    expect(rows(df)).toEqual(got);
    // DuckDB's own inference picks the same kinds (its integers may be HUGEINT, wider than int64).
    const types = await duckdbRows(conn, `DESCRIBE SELECT * FROM read_json('${path}', format = 'newline_delimited')`);
    expect(types.map((t) => [t.column_name, t.column_type === "HUGEINT" ? "BIGINT" : t.column_type])).toEqual([
      ["i", "BIGINT"],
      ["f", "DOUBLE"],
      ["b", "BOOLEAN"],
      ["s", "VARCHAR"],
    ]);
  });

  it("nodejs-polars readJSON gives the same rows", () => {
    const p = pl.readJSON(readFileSync(path), { format: "lines" });
    const df = readNDJSONSync(path, { columns: ["i", "f", "b", "s"] });
    const ours = rows(df).map((r) => ({ ...r, i: r.i === null ? null : Number(r.i) }));
    expect(ours).toEqual(p.select("i", "f", "b", "s").toRecords());
  });

  it("written back, both readers read the same rows", async () => {
    const df = readNDJSONSync(path);
    const out = join(dir, "random-out.ndjson");
    await writeNDJSON(df, out);
    const conn = await duckdbConnection();
    const got = await duckdbRows(conn, `SELECT i, f, b, s FROM read_json('${out}', format = 'newline_delimited', columns = {i: 'BIGINT', f: 'DOUBLE', b: 'BOOLEAN', s: 'VARCHAR'})`);
    expect(got).toEqual(want);
    expect(rows(readNDJSONSync(out))).toEqual(want);
    df.dispose();
  });
});

describe("input memory that JS can detach", () => {
  it("readNDJSON parses its own copy: transferring the buffer away and overwriting it mid-parse changes nothing", async () => {
    let text = "";
    for (let i = 0; i < 200_000; i++) text += `{"k":${i},"v":"s${i % 10}"}\n`;
    const bytes = new Uint8Array(Buffer.from(text));
    const pending = readNDJSON(bytes);
    const moved = structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
    new Uint8Array(moved).fill(0x39);
    expect(bytes.byteLength).toBe(0);
    const df = await pending;
    expect(df.columns).toEqual(["k", "v"]);
    expect(df.height).toBe(200_000);
    expect(df.getColumn("k").sum()).toBe((199_999n * 200_000n) / 2n);
    df.dispose();
  });
});

describe("scanNDJSON", () => {
  it("projection is pushed into the reader: a nested value in a column the plan does not use is never parsed", async () => {
    const path = join(dir, "scan.ndjson");
    writeFileSync(path, '{"a":1,"b":"x","nest":{"deep":[1]}}\n{"a":2,"b":"y","nest":[]}\n{"a":3,"b":"x","nest":null}\n');
    expect(() => readNDJSONSync(path)).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    const lf = scanNDJSON(path, { columns: ["a", "b"] });
    expect(lf.schema).toEqual({ a: "int64", b: "utf8" });
    const q = lf.filter(col("b").eq("x")).select("a");
    expect(q.explain()).toMatch(/SCAN NDJSON .*1 of 2 columns: (a|b)|SCAN NDJSON .*2 columns/);
    expect(rows(await q.collect())).toEqual([{ a: 1n }, { a: 3n }]);
    const full = scanNDJSON(path, { columns: ["a", "b"] }).select(col("a").sum());
    expect(rows(full.collectSync())).toEqual([{ a: 6n }]);
  });

  it("only the columns used are read; counting rows reads one; the schema is fixed from inferSchemaLength records", async () => {
    const path = join(dir, "scan2.ndjson");
    writeFileSync(path, '{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n{"a":3.5,"b":"z"}\n');
    const lf = scanNDJSON(path, { inferSchemaLength: 2 });
    expect(lf.schema).toEqual({ a: "int64", b: "utf8" });
    expect(lf.select("b").explain()).toMatch(/SCAN NDJSON .*1 of 2 columns: b/);
    expect(rows(await lf.select("b").collect())).toEqual([{ b: "x" }, { b: "y" }, { b: "z" }]);
    expect(rows(await lf.select(col("b").count().alias("n")).collect())).toEqual([{ n: 3n }]);
    await expect(lf.collect()).rejects.toMatchObject({ code: "ERR_JSON_PARSE", message: expect.stringMatching(/line 3, column "a": 3.5/) });
    expect(scanNDJSON(path).schema).toEqual({ a: "float64", b: "utf8" });
    expect(rows(await scanNDJSON(path).head(1).collect())).toEqual([{ a: 1, b: "x" }]);
    expect(rows(await scanNDJSON(path, { nRows: 2 }).select("a").collect())).toEqual([{ a: 1n }, { a: 2n }]);
    expect(rows(scanNDJSON(path, { nRows: 2 }).tail(1).collectSync())).toEqual([{ a: 2n, b: "y" }]);
    expect(() => scanNDJSON(path, { rowIndex: "i" } as never)).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
  });
});
