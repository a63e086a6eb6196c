// str.like (SQL LIKE): hand-computed answers, then every pattern against an independent
// reference (a RegExp over code points built from the pattern), on utf8 and large_utf8, with
// nulls, sliced input and a multi-block length.
import { describe, expect, it } from "vitest";
import { col, DtypeError, InvalidArgumentError, type DType } from "../src/index.js";
import { diffValues, rawColumn, type Raw } from "./helpers.js";
import { frameOf, run } from "./expr_ref.js";

/** LIKE through a RegExp: `%` -> any run, `_` -> one code point (the `u` flag), rest literal. */
function likeRef(s: string, pattern: string): boolean {
  const body = Array.from(pattern, (c) => (c === "%" ? "[^]*" : c === "_" ? "." : c.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&"))).join("");
  return new RegExp(`^${body}$`, "su").test(s);
}

const WORDS: Raw[] = [
  "", "a", "ab", "abc", "ba", "special requests", "xx special big requests yy", "requests special",
  "héllo", "hé", "日本語", "🦀", "🦀🦀", "a🦀c", "aé", "%", "_", "100%", "a_b", "Customer x Complaints",
  "Customer Complaints", "CustomerComplaints!", "PROMO BRUSHED", "xPROMO", "forest green", null,
];
const PATTERNS = [
  "", "%", "%%", "_", "__", "___", "a", "a%", "%a", "%a%", "a_", "_b", "a_c", "%b%c%", "a%c",
  "%special%requests%", "special%", "%requests", "h_llo", "h%o", "_é", "%é", "日_語", "日%", "_🦀", "🦀_",
  "a_🦀%", "%🦀%", "🦀", "%\\%", "100%", "1_0%", "%_%_%", "%%%", "_%_", "Customer%Complaints",
  "%Customer%Complaints%", "PROMO%", "forest%", "%green%", "a%b%c%d%e",
];

describe("str.like", () => {
  it("hand-computed matches: wildcards at either end, `_` on multi-byte characters, empty and %% patterns", () => {
    const df = frameOf({ s: ["utf8", ["", "abc", "héllo", "🦀x", "a%c", null, "Customer said Complaints"]] });
    const like = (p: string) => run(df, col("s").str.like(p)).values;
    expect(like("")).toEqual([true, false, false, false, false, null, false]);
    expect(like("%")).toEqual([true, true, true, true, true, null, true]);
    expect(like("%%")).toEqual([true, true, true, true, true, null, true]);
    expect(like("_")).toEqual([false, false, false, false, false, null, false]);
    expect(like("__")).toEqual([false, false, false, true, false, null, false]); // 🦀 is one character
    expect(like("a%")).toEqual([false, true, false, false, true, null, false]);
    expect(like("%c")).toEqual([false, true, false, false, true, null, false]);
    expect(like("a_c")).toEqual([false, true, false, false, true, null, false]);
    expect(like("h_llo")).toEqual([false, false, true, false, false, null, false]); // é: 2 bytes, 1 character
    expect(like("h__llo")).toEqual([false, false, false, false, false, null, false]);
    expect(like("_x")).toEqual([false, false, false, true, false, null, false]);
    expect(like("%Customer%Complaints%")).toEqual([false, false, false, false, false, null, true]);
    expect(like("abc")).toEqual([false, true, false, false, false, null, false]); // no wildcard: equality
    expect(like("ab")).toEqual([false, false, false, false, false, null, false]);
    // NOT LIKE keeps null as null.
    expect(run(df, col("s").str.like("%l%").not()).values).toEqual([true, true, false, true, true, null, false]);
  });

  for (const dt of ["utf8", "large_utf8"] as DType[]) {
    it(`${dt}: every pattern as the reference, 20,003 rows with nulls, whole and sliced`, () => {
      const n = 20_003; // several 4096-row blocks
      const gen = rawColumn(dt, n, "some");
      const raw = gen.map((v, i) => (v === null ? null : (WORDS[i % WORDS.length] as Raw)));
      const full = frameOf({ s: [dt, raw] });
      const sliced = full.slice(5, n - 11);
      for (const p of PATTERNS) {
        for (const [df, vals] of [[full, raw], [sliced, raw.slice(5, n - 6)]] as const) {
          const want = vals.map((v) => (v === null ? null : likeRef(v as string, p)));
          const got = run(df, col("s").str.like(p));
          expect(got.dtype).toBe("bool");
          const diff = diffValues(got.values, want);
          if (diff !== null) throw new Error(`pattern ${JSON.stringify(p)}: ${diff}`);
        }
      }
    });
  }

  it("works in filter, and on a literal", () => {
    const df = frameOf({ s: ["utf8", ["pending special requests", "special", null, "requests special"]], k: ["int32", [1, 2, 3, 4]] });
    const kept = df.filter(col("s").str.like("%special%requests%").not());
    expect(kept.getColumn("k").toArray()).toEqual([2, 4]);
    expect(run(df, col("s").str.like("special")).values).toEqual([false, true, null, false]);
  });

  it("rejects a non-string pattern and a non-string input", () => {
    const df = frameOf({ k: ["int32", [1]] });
    expect(() => col("k").str.like(5 as unknown as string)).toThrow(InvalidArgumentError);
    expect(() => run(df, col("k").str.like("%"))).toThrow(DtypeError);
  });
});
