// The string functions that give several columns. str.splitExact / splitN: one column per field
// against a JS reference on random strings with nulls (ASCII and not, separators of one and
// several characters, whole and sliced frames, both string dtypes), Polars' documented examples,
// naming, eager == lazy, and the refused uses. str.extractGroups: one column per capture group
// against JS RegExp (the syntax both share), group names, and its refused uses.
import { describe, expect, it } from "vitest";
import { col, DataFrame, Series } from "../src/index.js";
import { expectCode } from "./helpers.js";
import { randomTexts } from "./support/random.js";

const ALPHABET = ["a", "b", "_", "_", "-", "--", "é", "日", "🦀", " ", "x"];

const randomStrings = (n: number, seed: number) => randomTexts(n, seed, ALPHABET, 9);

/** The fields of one string: `count` pieces cut at `by`; the last the rest when `restLast`. */
function fieldsRef(s: string | null, by: string, count: number, inclusive: boolean, restLast: boolean): (string | null)[] {
  if (s === null) return new Array(count).fill(null);
  const out: (string | null)[] = [];
  let b = 0;
  let more = true;
  for (let k = 0; k < count; k++) {
    if (!more) {
      out.push(null);
      continue;
    }
    const at = s.indexOf(by, b);
    if (restLast && k === count - 1) {
      out.push(s.slice(b));
    } else if (at < 0) {
      out.push(s.slice(b));
      more = false;
    } else {
      out.push(s.slice(b, inclusive ? at + by.length : at));
      b = at + by.length;
    }
  }
  return out;
}

const columnsOf = (df: DataFrame) => df.columns.map((c) => df.getColumn(c).toArray());

describe("str.splitExact / splitN", () => {
  it("give Polars' documented answers", () => {
    const df = new DataFrame({ x: ["a_1", null, "c", "d_4"] });
    const out = df.select(col("x").str.splitExact("_", 1));
    expect(out.columns).toEqual(["field_0", "field_1"]);
    expect(columnsOf(out)).toEqual([["a", null, "c", "d"], ["1", null, null, "4"]]);
    const inc = df.select(col("x").str.splitExact("_", 1, { inclusive: true, names: ["first", "second"] }));
    expect(inc.columns).toEqual(["first", "second"]);
    expect(columnsOf(inc)).toEqual([["a_", null, "c", "d_"], ["1", null, null, "4"]]);
    const s = new DataFrame({ s: ["foo bar", null, "foo-bar", "foo bar baz"] });
    expect(columnsOf(s.select(col("s").str.splitN(" ", 2)))).toEqual([["foo", null, "foo-bar", "foo"], ["bar", null, null, "bar baz"]]);
    // Pieces past the last column are dropped by splitExact and kept by splitN.
    const t = new DataFrame({ t: ["a_b_c_d", "", "_", "__"] });
    expect(columnsOf(t.select(col("t").str.splitExact("_", 2)))).toEqual([["a", "", "", ""], ["b", null, "", ""], ["c", null, null, ""]]);
    expect(columnsOf(t.select(col("t").str.splitN("_", 3)))).toEqual([["a", "", "", ""], ["b", null, "", ""], ["c_d", null, null, ""]]);
    expect(columnsOf(t.select(col("t").str.splitN("_", 1)))).toEqual([["a_b_c_d", "", "_", "__"]]);
    expect(columnsOf(t.select(col("t").str.splitExact("_", 0)))).toEqual([["a", "", "", ""]]);
  });

  const raw = randomStrings(12_007, 7);
  for (const [label, df, vals] of [
    ["whole", new DataFrame({ s: raw }), raw],
    ["sliced", new DataFrame({ s: raw }).slice(5, 9_000), raw.slice(5, 9_005)],
  ] as const) {
    it(`match the JS reference (${label} frame, large_utf8 too)`, () => {
      for (const frame of [df, df.select(col("s").cast("large_utf8").alias("s"))]) {
        const dtype = frame.getColumn("s").dtype;
        for (const by of ["_", "--", "é", "🦀a"]) {
          for (const [n, inclusive] of [[0, false], [1, false], [3, false], [2, true]] as const) {
            const out = frame.select(col("s").str.splitExact(by, n, { inclusive }));
            expect(out.columns.length).toBe(n + 1);
            const want = vals.map((v) => fieldsRef(v, by, n + 1, inclusive, false));
            out.columns.forEach((c, k) => {
              expect(out.getColumn(c).dtype).toBe(dtype);
              expect(out.getColumn(c).toArray()).toEqual(want.map((w) => w[k]));
            });
          }
          for (const n of [1, 2, 4]) {
            const out = frame.select(col("s").str.splitN(by, n));
            const want = vals.map((v) => fieldsRef(v, by, n, false, true));
            out.columns.forEach((c, k) => expect(out.getColumn(c).toArray()).toEqual(want.map((w) => w[k])));
          }
        }
      }
    });
  }

  it("work in withColumns and the lazy engine alike, after a selector", async () => {
    const df = new DataFrame({ a: ["1-2", "3", null], b: ["x-y-z", "-", "q"] });
    const eager = df.withColumns(col("a").str.splitExact("-", 1, { names: ["a0", "a1"] }));
    expect(eager.columns).toEqual(["a", "b", "a0", "a1"]);
    expect(columnsOf(eager.select("a0", "a1"))).toEqual([["1", "3", null], ["2", null, null]]);
    const lazy = await df.lazy().withColumns(col("a").str.splitExact("-", 1, { names: ["a0", "a1"] })).collect();
    expect(columnsOf(lazy)).toEqual(columnsOf(eager));
    const viaSelector = df.select(col("^b$").str.splitN("-", 2, { names: ["head", "rest"] }));
    expect(columnsOf(viaSelector)).toEqual([["x", "", "q"], ["y-z", "", null]]);
  });

  it("refuse bad arguments and uses that would need several columns in one place", () => {
    const df = new DataFrame({ s: ["a_b"], n: [1] });
    expectCode(() => col("s").str.splitExact("", 1), "ERR_INVALID_ARGUMENT");
    expectCode(() => col("s").str.splitExact("_", -1), "ERR_INVALID_ARGUMENT");
    expectCode(() => col("s").str.splitExact("_", 1.5), "ERR_INVALID_ARGUMENT");
    expectCode(() => col("s").str.splitN("_", 0), "ERR_INVALID_ARGUMENT");
    expectCode(() => col("s").str.splitExact("_", 1, { names: ["only"] }), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.select(col("s").str.splitExact("_", 1).str.len()), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.select(col("s").str.splitExact("_", 1).alias("x")), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.select(col("n").str.splitExact("_", 1)), "ERR_DTYPE");
    expectCode(() => new Series("s", ["a_b"]).str.splitExact("_", 1), "ERR_INVALID_ARGUMENT");
    // Two splits that name their columns alike collide as any two columns of one name would.
    expectCode(() => df.select(col("s").str.splitExact("_", 1), col("s").str.splitN("_", 2)), "ERR_INVALID_ARGUMENT");
    // The frame is intact after the errors.
    expect(columnsOf(df)).toEqual([["a_b"], [1]]);
  });

  it("extractGroups: one column per group, named or numbered, as RegExp's groups", async () => {
    const vals = [...randomStrings(3_001, 11), "2024-05_x", "x1999-12y", null];
    const df = new DataFrame({ s: vals });
    const pattern = "(\\d+)?-(?<m>[a-z_]+|\\d{2})(🦀)?";
    const re = new RegExp("(\\d+)?-(?<m>[a-z_]+|\\d{2})(🦀)?", "u");
    const out = df.select(col("s").str.extractGroups(pattern));
    expect(out.columns).toEqual(["1", "m", "3"]);
    const want = vals.map((v) => {
      const m = v === null ? null : re.exec(v);
      return m === null ? [null, null, null] : [m[1] ?? null, m[2] ?? null, m[3] ?? null];
    });
    out.columns.forEach((c, k) => {
      expect(out.getColumn(c).dtype).toBe("utf8");
      expect(out.getColumn(c).toArray()).toEqual(want.map((w) => w[k]));
    });
    const lazy = await df.lazy().select(col("s").str.extractGroups(pattern)).collect();
    expect(columnsOf(lazy)).toEqual(columnsOf(out));
    const dates = new DataFrame({ d: ["2024-05-17", "n/a", null] });
    const parts = dates.withColumns(col("d").str.extractGroups("(?<year>\\d{4})-(?<month>\\d{2})"));
    expect(parts.columns).toEqual(["d", "year", "month"]);
    expect(columnsOf(parts.select("year", "month"))).toEqual([["2024", null, null], ["05", null, null]]);
    expectCode(() => dates.select(col("d").str.extractGroups("\\d+")), "ERR_INVALID_ARGUMENT");  // no group
    expectCode(() => dates.select(col("d").str.extractGroups("(\\d")), "ERR_INVALID_ARGUMENT");  // bad pattern
    expectCode(() => dates.select(col("d").str.extractGroups("(\\d)").str.len()), "ERR_INVALID_ARGUMENT");
    expectCode(() => new Series("d", ["1"]).str.extractGroups("(\\d)"), "ERR_INVALID_ARGUMENT");
  });
});
