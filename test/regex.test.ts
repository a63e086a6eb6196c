// The regex string functions (contains, countMatches, find, extract, replace, replaceAll)
// differentially against JS RegExp with the `u` flag on random ASCII and non-ASCII strings, and
// against DuckDB's RE2 functions, plus typed errors, nulls, and the pathological pattern.
import { describe, expect, it } from "vitest";
import { col, type DType } from "../src/index.js";
import { duckdbRows, duckdbTable } from "./support/duckdb.js";
import { Rng } from "./support/random.js";
import type { Raw } from "./helpers.js";
import { frameOf, run } from "./expr_ref.js";

// Characters whose classes agree between Rust's regex and JS's /u (no \r or U+2028: JS's `.`
// stops at those; no U+FEFF: JS's \s takes it). ẞ and the Kelvin sign exercise case folding.
const ALPHABET = ["a", "b", "c", "A", "B", "C", "x", "1", "2", " ", "-", "\n", "\t", "é", "É", "ß", "ẞ", "Ω", "ω", "本", "🦀", "K", "k", "٣", "_"];
const ASCII = ["a", "b", "c", "A", "x", "1", " ", "-", "_", "."];

function randomStrings(rng: Rng, n: number, alphabet: readonly string[]): Raw[] {
  const out: Raw[] = [];
  for (let i = 0; i < n; i++) {
    if (rng.int(0, 9) === 0) {
      out.push(null);
      continue;
    }
    let s = "";
    const len = rng.int(0, 12);
    for (let k = 0; k < len; k++) s += rng.pick(alphabet);
    out.push(s);
  }
  return out;
}

/**
 * The JS RegExp for one of our patterns: leading (?ims) flags become RegExp flags, \x{..} is
 * \u{..}, and Unicode \d / \w (Rust) are spelled out (JS's are ASCII-only).
 */
function jsRegExp(pattern: string, global = true): RegExp {
  let flags = "u" + (global ? "g" : "");
  let p = pattern;
  const lead = /^\(\?([ims]+)\)/.exec(p);
  if (lead) {
    flags += lead[1];
    p = p.slice(lead[0].length);
  }
  p = p
    .replace(/\\x\{([0-9a-fA-F]+)\}/g, "\\u{$1}")
    .replace(/\\([pP])\{(Greek|Han|Latin|Cyrillic)\}/g, "\\$1{Script=$2}")
    .replace(/\\d/g, "\\p{Nd}")
    .replace(/\\w/g, "[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]");
  return new RegExp(p, flags);
}

/** Successive non-overlapping matches, an empty one right after the previous match skipped. */
function matches(re: RegExp, s: string, limit = Infinity): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  let pos = 0;
  let lastEnd = -1;
  while (pos <= s.length && out.length < limit) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (!m) break;
    const end = m.index + m[0].length;
    if (m[0].length === 0 && end === lastEnd) {
      if (pos >= s.length) break;
      pos += (s.codePointAt(pos) as number) > 0xffff ? 2 : 1;
      continue;
    }
    out.push(m);
    lastEnd = end;
    pos = end;
  }
  return out;
}

/** Rust-style replacement: `$n`, `${n}`, `$name`, `${name}`, `$$` (missing groups: nothing). */
function expand(template: string, m: RegExpExecArray): string {
  return template.replace(/\$(\$|\{([^}]*)\}|([A-Za-z0-9_]+))/g, (all, tok: string, braced?: string, bare?: string) => {
    if (tok === "$") return "$";
    const name = braced ?? bare ?? "";
    const v = /^\d+$/.test(name) ? m[Number(name)] : m.groups?.[name];
    return v ?? "";
  });
}

function replaceRef(s: string, pattern: string, template: string, limit: number): string {
  let out = "";
  let copied = 0;
  for (const m of matches(jsRegExp(pattern), s, limit)) {
    out += s.slice(copied, m.index) + expand(template, m);
    copied = m.index + m[0].length;
  }
  return out + s.slice(copied);
}

const chars = (s: string) => Array.from(s).length;

// Patterns in the syntax both engines read alike (after jsRegExp).
const PATTERNS = [
  "a", "ab|c", "[a-c]+", "[^a\\s]+", "a.c", "(?:ab)+", "a{2,3}", "a+?b", "(a|b)*c", "^a", "a$", "(?m)^b",
  "(?m)c$", "(?s)a.b", "é+", "[é-ω]", "\\p{L}+", "\\p{Lu}", "\\p{Ll}{2}", "\\p{Greek}", "\\p{N}", "\\p{Nd}+",
  "[\\p{Han}🦀]", "\\P{L}", "(?i)ω", "(?i)[a-c]+", "(?i)ß", "(?i)k", "(?i)é|x", "\\x{1F980}", "\\u00e9", "\\d+",
  "\\w+", "\\s", "\\S+", "[^\\d ]", "(a)(b)?", "(?<x>a)(?<y>[bc])", "(a*)b", "x*", "(?:)", "[ -]",
];

describe("regex functions against JS RegExp (u flag)", () => {
  for (const dt of ["utf8", "large_utf8"] as DType[]) {
    it(`${dt}: contains, countMatches, find, extract, replace`, () => {
      const rng = new Rng(dt === "utf8" ? 7 : 8);
      const raw = randomStrings(rng, 300, ALPHABET);
      const df = frameOf({ s: [dt, raw] }).slice(3, 290);
      const vals = raw.slice(3, 293);
      const map = <T>(f: (s: string) => T) => vals.map((v) => (v === null ? null : f(v as string)));
      for (const p of PATTERNS) {
        const re = jsRegExp(p, false);
        const check = (e: ReturnType<typeof col>, want: unknown[], dtype: DType, what: string) => {
          const got = run(df, e);
          expect(got.dtype, `${what} ${p}`).toBe(dtype);
          expect(got.values, `${what} ${p}`).toEqual(want);
        };
        check(col("s").str.contains(p), map((s) => re.test(s)), "bool", "contains");
        check(col("s").str.countMatches(p), map((s) => matches(jsRegExp(p), s).length), "uint32", "countMatches");
        check(col("s").str.find(p), map((s) => {
          const m = jsRegExp(p, false).exec(s);
          return m ? chars(s.slice(0, m.index)) : null;
        }), "uint32", "find");
        const groups = new RegExp(re.source + "|", "u").exec("")!.length - 1;
        for (const g of [0, Math.min(1, groups)]) {
          check(col("s").str.extract(p, g), map((s) => jsRegExp(p, false).exec(s)?.[g] ?? null), dt, `extract ${g}`);
        }
        const template = groups >= 2 ? "<$2|${1}>" : groups === 1 ? "[$1]$$" : "<$0>";
        check(col("s").str.replace(p, template), map((s) => replaceRef(s, p, template, 1)), dt, "replace");
        check(col("s").str.replaceAll(p, template), map((s) => replaceRef(s, p, template, Infinity)), dt, "replaceAll");
        check(col("s").str.replace(p, "#", { n: 2 }), map((s) => replaceRef(s, p, "#", 2)), dt, "replace n=2");
      }
    });
  }

  it("word boundaries on ASCII text", () => {
    const raw = randomStrings(new Rng(3), 300, ASCII);
    const df = frameOf({ s: ["utf8", raw] });
    for (const p of ["\\ba", "a\\b", "\\b\\w+\\b", "\\Bx", "\\b"]) {
      const got = run(df, col("s").str.replaceAll(p, "|")).values;
      // JS's \b is ASCII; on ASCII text it is Rust's.
      const want = raw.map((s) => (s === null ? null : replaceRef(s as string, p.replace(/\\w/g, "[A-Za-z0-9_]"), "|", Infinity)));
      expect(got, p).toEqual(want);
    }
  });
});

describe("regex functions against DuckDB (RE2)", () => {
  it("regexp_matches, regexp_extract, regexp_replace", async () => {
    const raw = randomStrings(new Rng(11), 400, ["a", "b", "c", "x", "y", "z", " ", "é", "本"]);
    const conn = await duckdbTable({ s: raw }, { s: "utf8" });
    const df = frameOf({ s: ["utf8", raw] });
    for (const p of ["[a-c]+", "(b+)(c)?", "x|yz", "\\p{L}+", "^a.", "(?i)A+b", "[^ ]+$"]) {
      const q = p.replace(/'/g, "''");
      const rows = await duckdbRows(
        conn,
        `SELECT regexp_matches(s, '${q}') AS m, regexp_extract(s, '${q}', 0) AS e0,
                regexp_replace(s, '${q}', '<\\0>', 'g') AS r, regexp_replace(s, '${q}', '#') AS r1 FROM t`,
      );
      expect(run(df, col("s").str.contains(p)).values, p).toEqual(rows.map((r) => r.m));
      // DuckDB's regexp_extract gives '' where there is no match; ours gives null.
      expect(run(df, col("s").str.extract(p, 0)).values.map((v, i) => (v === null && raw[i] !== null ? "" : v)), p).toEqual(
        rows.map((r) => r.e0),
      );
      expect(run(df, col("s").str.replaceAll(p, "<$0>")).values, p).toEqual(rows.map((r) => r.r));
      expect(run(df, col("s").str.replace(p, "#")).values, p).toEqual(rows.map((r) => r.r1));
    }
    conn.closeSync();
  });
});

describe("regex functions: semantics", () => {
  const df = frameOf({ s: ["utf8", ["a.b", "axb", null, "", "2024-05-01 and 1999-12-31"]] });
  const values = (e: ReturnType<typeof col>) => run(df, e).values;

  it("contains is regex by default; literal: true searches the plain text", () => {
    expect(values(col("s").str.contains("a.b"))).toEqual([true, true, null, false, false]);
    expect(values(col("s").str.contains("a.b", { literal: true }))).toEqual([true, false, null, false, false]);
    expect(values(col("s").str.contains("(", { literal: true }))).toEqual([false, false, null, false, false]);
  });

  it("named groups, $name references, n and literal replacement", () => {
    const p = "(?P<y>\\d{4})-(?<m>\\d\\d)-(\\d\\d)";
    expect(values(col("s").str.replaceAll(p, "$3/${m}/$y"))).toEqual(["a.b", "axb", null, "", "01/05/2024 and 31/12/1999"]);
    expect(values(col("s").str.replace(p, "$3/${m}/$y"))).toEqual(["a.b", "axb", null, "", "01/05/2024 and 1999-12-31"]);
    expect(values(col("s").str.replace("\\d", "_", { n: 3 }))).toEqual(["a.b", "axb", null, "", "___4-05-01 and 1999-12-31"]);
    expect(values(col("s").str.replaceAll(".", "$0", { literal: true }))).toEqual(["a$0b", "axb", null, "", "2024-05-01 and 1999-12-31"]);
    expect(values(col("s").str.extract(p, 2))).toEqual([null, null, null, null, "05"]);
    expect(values(col("s").str.find("\\d{4}-12"))).toEqual([null, null, null, null, 15]);
    expect(values(col("s").str.countMatches("\\d+"))).toEqual([0, 0, null, 0, 6]);
    expect(values(col("s").str.countMatches(".", { literal: true }))).toEqual([1, 0, null, 0, 0]);
  });

  it("expressions print as written", () => {
    expect(String(col("s").str.contains("a.b"))).toBe('col("s").str.contains("a.b")');
    expect(String(col("s").str.contains("a.b", { literal: true, strict: false }))).toBe(
      'col("s").str.contains("a.b", { literal: true, strict: false })',
    );
    expect(String(col("s").str.replace("(a)", "$1", { n: 2 }))).toBe('col("s").str.replace("(a)", "$1", { n: 2 })');
    expect(String(col("s").str.replaceAll("a", "b", { literal: true }))).toBe('col("s").str.replaceAll("a", "b", { literal: true })');
    expect(String(col("s").str.extract("(a)"))).toBe('col("s").str.extract("(a)", 1)');
    expect(String(col("s").str.countMatches("a"))).toBe('col("s").str.countMatches("a")');
  });

  it("the pathological (a*)*b over 1e5 characters completes (linear time)", () => {
    const big = frameOf({ s: ["utf8", ["a".repeat(100_000), "a".repeat(99_999) + "b"]] });
    expect(run(big, col("s").str.contains("(a*)*b")).values).toEqual([false, true]);
    expect(run(big, col("s").str.find("(a|aa)*b")).values).toEqual([null, 0]);
  });

  it("a bad pattern is a typed error naming the position; strict: false gives nulls", () => {
    const bad: [string, number][] = [["ab(c", 2], ["a**", 2], ["[z-a]", 1], ["x\\p{Nope}", 3], ["(?<n>a)(?<n>b)", 10]];
    for (const [p, at] of bad) {
      let err: unknown;
      try {
        run(df, col("s").str.contains(p));
      } catch (e) {
        err = e;
      }
      expect((err as { code?: string }).code, p).toBe("ERR_INVALID_ARGUMENT");
      expect(String((err as Error).message), p).toContain(`invalid regex at position ${at}`);
    }
    expect(values(col("s").str.contains("ab(c", { strict: false }))).toEqual([null, null, null, null, null]);
    expect(() => run(df, col("s").str.extract("(a)", 2))).toThrow(/group 2 does not exist/);
    expect(() => col("s").str.contains("a", { literal: "yes" as unknown as boolean })).toThrow(/literal must be a boolean/);
    expect(() => run(frameOf({ n: ["int32", [1]] }), col("n").str.contains("1"))).toThrow(/not supported for dtype int32/);
  });
});
