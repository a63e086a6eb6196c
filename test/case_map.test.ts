// Unicode case mapping (str.toUpperCase / toLowerCase / toTitleCase) against JS's own
// String.prototype.toUpperCase / toLowerCase, which implement the same full mappings and the
// Final_Sigma rule; title case against a reference built from those and \p{L}/\p{N}.
import { describe, expect, it } from "vitest";
import { col, DataFrame } from "../src/index.js";

// Mappings added after Unicode 15.0, the version of the generated tables, which a newer JS
// engine knows: new capitals of ƛ and ɤ (16.0), Cyrillic U+1C89/U+1C8A (16.0), Latin letters
// U+A7CB..U+A7DC (16.0/17.0), Garay (16.0) and Beria Erfe (17.0). Left out of the comparison.
const NEWER = (c: number) =>
  c === 0x19b || c === 0x264 || (c >= 0x1c89 && c <= 0x1c8a) || (c >= 0xa7cb && c <= 0xa7dc) ||
  (c >= 0x10d50 && c <= 0x10d85) || (c >= 0x16ea0 && c <= 0x16ed3);

function cased(): string[] {
  const out: string[] = [];
  for (let c = 0; c < 0x20000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const s = String.fromCodePoint(c);
    if ((s.toUpperCase() !== s || s.toLowerCase() !== s) && !NEWER(c)) out.push(s);
  }
  return out;
}

const isWordChar = (ch: string) => /[\p{Alphabetic}\p{N}]/u.test(ch);
/** Word starts uppercased, the rest lowercased in context (final sigma), for rows whose
 *  lowercase keeps the character count. */
function titleRef(s: string): string {
  const chars = Array.from(s);
  const lower = Array.from(s.toLowerCase());
  expect(lower.length).toBe(chars.length);
  let out = "";
  let word = false;
  chars.forEach((ch, i) => {
    out += word ? lower[i] : ch.toUpperCase();
    word = isWordChar(ch);
  });
  return out;
}

describe("Unicode case mapping", () => {
  it("maps every cased character as JS does, one per row", () => {
    const chars = cased();
    expect(chars.length).toBeGreaterThan(2500);
    const df = new DataFrame({ s: chars });
    const got = df.select(col("s").str.toUpperCase().alias("u"), col("s").str.toLowerCase().alias("l")).toRecords();
    const bad = chars.filter((s, i) => got[i]?.u !== s.toUpperCase() || got[i]?.l !== s.toLowerCase());
    expect(bad.map((s) => s.codePointAt(0)!.toString(16))).toEqual([]);
  });

  it("maps random mixed strings as JS does (final sigma, multi-character mappings)", () => {
    const pool = [...cased(), " ", "'", "a", "Σ", "ς", "·", "\u0301", "-", "9", "日", "🦀"];
    let seed = 20261202;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const rows: (string | null)[] = [];
    for (let i = 0; i < 400; i++) {
      if (i % 37 === 5) rows.push(null);
      else rows.push(Array.from({ length: Math.floor(rnd() * 12) }, () => pool[Math.floor(rnd() * pool.length)]).join(""));
    }
    const df = new DataFrame({ s: rows });
    for (const [e, ref] of [
      [col("s").str.toUpperCase(), (s: string) => s.toUpperCase()],
      [col("s").str.toLowerCase(), (s: string) => s.toLowerCase()],
    ] as const) {
      const got = df.select(e).getColumn("s").toArray();
      expect(got).toEqual(rows.map((s) => (s === null ? null : ref(s))));
    }
    const sliced = df.slice(7, 101);
    expect(sliced.select(col("s").str.toUpperCase()).getColumn("s").toArray()).toEqual(
      rows.slice(7, 108).map((s) => (s === null ? null : s.toUpperCase())),
    );
  });

  it("title cases words as Polars does", () => {
    const rows = ["you talkin' to me?", "'e.t. phone HOME'", "to infinity,and BEYOND!", "ǆemal ǉubljana", "straße 9lives", "ΣΑΣ ΣΑΣ", "", null, "élan vital"];
    const got = new DataFrame({ s: rows }).select(col("s").str.toTitleCase()).getColumn("s").toArray();
    expect(got.slice(0, 3)).toEqual(["You Talkin' To Me?", "'E.T. Phone Home'", "To Infinity,And Beyond!"]);
    expect(got[3]).toBe("ǅemal ǈubljana"); // the title mapping, not the upper one (Ǆ)
    const ref = rows.map((s) => (s === null ? null : titleRef(s)));
    // JS has no title mapping: compare the rows where it equals the uppercase one.
    expect([0, 1, 2, 4, 5, 6, 7, 8].map((i) => got[i])).toEqual([0, 1, 2, 4, 5, 6, 7, 8].map((i) => ref[i]));
    expect(got[4]).toBe("Straße 9lives");
  });

  it("ilike matches the lowercased string against the lowercased pattern", () => {
    const rows = ["Straße", "STRASSE", "ΣΟΦΙΑ", "σοφια", "Big Smith & Co", "smithy", "", null, "ǅemal", "İstanbul"];
    const likeRe = (p: string) => new RegExp("^" + Array.from(p).map((c) => (c === "%" ? ".*" : c === "_" ? "." : c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("") + "$", "su");
    const df = new DataFrame({ s: rows });
    for (const pat of ["%smith%", "STRA%E", "σοφι_", "%ΦΙ%", "ǆ%", "i%", "%"]) {
      const got = df.select(col("s").str.ilike(pat)).getColumn("s").toArray();
      const re = likeRe(pat.toLowerCase());
      expect(got, pat).toEqual(rows.map((r) => (r === null ? null : re.test(r.toLowerCase()))));
    }
    expect(() => new DataFrame({ n: [1] }).select(col("n").str.ilike("%"))).toThrow(/'str.ilike' is not supported for dtype/);
  });
});
