// JSON and NDJSON writing: exact text (numbers, NaN, escapes, dates, timestamps), round trips
// through the readers with the frame's schema, no temporary file left by a write. A failed
// write leaving what was at the path is tested with every writer in test/reliability.test.ts.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { DataFrame, readJSON, readNDJSONSync, Series, writeJSON, writeNDJSON, writeNDJSONSync, type DType } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "gpudf-json-write-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nd = (text: string, options = {}) => readNDJSONSync(Buffer.from(text), options);

describe("writing", () => {
  const frame = () =>
    new DataFrame({
      i: new Series("i", [1n, null, -3n]),
      f: [1, 0.1, NaN],
      b: [true, false, null],
      s: ['a"b\\c\n', "é😀", null],
    });

  it("NDJSON and JSON text: shortest floats with a fraction, NaN as null, strings escaped", async () => {
    const df = frame();
    const ndText = '{"i":1,"f":1.0,"b":true,"s":"a\\"b\\\\c\\n"}\n{"i":null,"f":0.1,"b":false,"s":"é😀"}\n{"i":-3,"f":null,"b":null,"s":null}\n';
    expect(await df.writeNDJSON()).toBe(ndText);
    expect(df.writeNDJSONSync()).toBe(ndText);
    const jsonText = '[{"i":1,"f":1.0,"b":true,"s":"a\\"b\\\\c\\n"},{"i":null,"f":0.1,"b":false,"s":"é😀"},{"i":-3,"f":null,"b":null,"s":null}]';
    expect(await writeJSON(df)).toBe(jsonText);
    expect(df.writeJSONSync()).toBe(jsonText);
    expect(JSON.parse(jsonText)[0].s).toBe('a"b\\c\n');
    df.dispose();
    const inf = new DataFrame({ x: [Infinity, -Infinity, 1e21, -0, 5e-324] });
    expect(inf.writeNDJSONSync()).toBe('{"x":null}\n{"x":null}\n{"x":1e+21}\n{"x":-0.0}\n{"x":5e-324}\n');
    inf.dispose();
    const named = new DataFrame({ 'a"b\\': [1n], "é\n": ["x"] });
    expect(named.writeNDJSONSync()).toBe('{"a\\"b\\\\":1,"é\\n":"x"}\n');
    const named2 = nd(named.writeNDJSONSync());
    expect(named2.columns).toEqual(['a"b\\', "é\n"]);
    [named, named2].forEach((f) => f.dispose());
    const none = new DataFrame({});
    expect(none.writeJSONSync()).toBe("[]");
    none.dispose();
  });

  it("dates as YYYY-MM-DD and timestamps as ISO-8601; a round trip with the schema gives the frame back", async () => {
    const df = nd('{"d":"1969-12-31","t":"2024-01-02T03:04:05.123456","n":-5,"u":7,"s":"ctl\\u0001","f":-1.25e-07}\n{"d":null,"t":null,"n":null,"u":null,"s":"","f":3}\n', {
      dtypes: { d: "date32", t: "timestamp[us]", n: "int16", u: "uint64", f: "float32" },
    });
    const path = join(dir, "round.ndjson");
    await writeNDJSON(df, path);
    expect(readFileSync(path, "utf8")).toBe(
      '{"d":"1969-12-31","t":"2024-01-02T03:04:05.123456","n":-5,"u":7,"s":"ctl\\u0001","f":-1.25e-07}\n{"d":null,"t":null,"n":null,"u":null,"s":"","f":3.0}\n',
    );
    const back = readNDJSONSync(path, { schema: df.schema as Record<string, DType> });
    expect(back.schema).toEqual(df.schema);
    expect(back.toRecords()).toEqual(df.toRecords());
    const jpath = join(dir, "round.json");
    df.writeJSONSync(jpath);
    const back2 = await readJSON(jpath, { schema: df.schema as Record<string, DType> });
    expect(back2.toRecords()).toEqual(df.toRecords());
    [df, back, back2].forEach((f) => f.dispose());
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("uint64 values past int64 and int64 extremes round trip exactly", () => {
    const df = new DataFrame({ u: new Series("u", [18446744073709551615n, 9223372036854775808n, 0n], "uint64"), i: new Series("i", [-9223372036854775808n, 9223372036854775807n, null]) });
    const text = df.writeNDJSONSync();
    expect(text).toBe('{"u":18446744073709551615,"i":-9223372036854775808}\n{"u":9223372036854775808,"i":9223372036854775807}\n{"u":0,"i":null}\n');
    const back = nd(text, { schema: { u: "uint64", i: "int64" } });
    expect(back.toRecords()).toEqual(df.toRecords());
    expect(() => nd('{"u":18446744073709551616}\n', { schema: { u: "uint64" } })).toThrow(expect.objectContaining({ code: "ERR_JSON_PARSE" }));
    expect(() => nd('{"u":-1}\n', { schema: { u: "uint64" } })).toThrow(expect.objectContaining({ code: "ERR_JSON_PARSE" }));
    [df, back].forEach((f) => f.dispose());
  });

  it("a write to a path that cannot be written is ERR_IO and leaves no temporary file; arguments are checked", async () => {
    const df = frame();
    await expect(df.writeNDJSON(join(dir, "no-such-dir", "x.ndjson"))).rejects.toMatchObject({ code: "ERR_IO" });
    expect(() => writeNDJSONSync(df, 5 as unknown as string)).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => writeNDJSONSync({} as DataFrame)).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    const target = join(dir, "keep.json");
    writeFileSync(target, "old");
    await df.writeJSON(target);
    expect(JSON.parse(readFileSync(target, "utf8"))).toHaveLength(3);
    df.dispose();
  });
});

