// str.strip / stripStart / stripEnd / stripPrefix / stripSuffix / head / tail / padStart / padEnd /
// zfill / reverse against JS references over code points (Array.from), on ASCII and non-ASCII
// strings with nulls, whole and sliced frames.
import { describe, expect, it } from "vitest";
import { col, concatStr, DataFrame, format, lit } from "../src/index.js";
import { expectCode } from "./helpers.js";
import { randomTexts } from "./support/random.js";

const WS = /^[\s\u0085]+|[\s\u0085]+$/gu; // JS \s is White_Space plus U+FEFF; U+FEFF is not used below
const cps = (s: string) => Array.from(s);


const ALPHABET = [" ", " ", "\t", "\n", "\u00a0", "\u3000", "\u2009", "a", "b", "x", "-", "_", "é", "日", "🦀", "Ω", "0", "7", "+", "-"];

const randomStrings = (n: number, seed: number) => randomTexts(n, seed, ALPHABET, 8);

function stripSet(s: string, set: string, start: boolean, end: boolean): string {
  const chars = cps(s);
  const members = new Set(cps(set));
  let b = 0, e = chars.length;
  if (start) while (b < e && members.has(chars[b] as string)) b++;
  if (end) while (e > b && members.has(chars[e - 1] as string)) e--;
  return chars.slice(b, e).join("");
}

function padRef(s: string, width: number, fill: string, start: boolean): string {
  const n = cps(s).length;
  const p = fill.repeat(Math.max(0, width - n));
  return start ? p + s : s + p;
}

function zfillRef(s: string, width: number): string {
  const n = cps(s).length;
  const sign = s.startsWith("-") || s.startsWith("+") ? s.slice(0, 1) : "";
  return sign + "0".repeat(Math.max(0, width - n)) + s.slice(sign.length);
}

describe("string transforms", () => {
  const raw = randomStrings(20_011, 42);
  for (const [label, df, vals] of [
    ["whole", new DataFrame({ s: raw }), raw],
    ["sliced", new DataFrame({ s: raw }).slice(7, 15_000), raw.slice(7, 15_007)],
  ] as const) {
    it(`match the JS references (${label} frame, large_utf8 too)`, () => {
      for (const frame of [df, df.select(col("s").cast("large_utf8").alias("s"))]) {
        const map = (f: (s: string) => string) => vals.map((v) => (v === null ? null : f(v)));
        const check = (e: ReturnType<typeof col>, want: (string | null)[]) => {
          const out = frame.select(e.alias("out")).getColumn("out");
          expect(out.dtype).toBe(frame.getColumn("s").dtype);
          expect(out.toArray()).toEqual(want);
        };
        check(col("s").str.strip(), map((s) => s.replace(WS, "")));
        check(col("s").str.stripStart(), map((s) => s.replace(/^[\s\u0085]+/u, "")));
        check(col("s").str.stripEnd(), map((s) => s.replace(/[\s\u0085]+$/u, "")));
        check(col("s").str.strip("-_🦀"), map((s) => stripSet(s, "-_🦀", true, true)));
        check(col("s").str.stripStart("a é"), map((s) => stripSet(s, "a é", true, false)));
        check(col("s").str.stripEnd("x日"), map((s) => stripSet(s, "x日", false, true)));
        check(col("s").str.strip(""), map((s) => s));
        check(col("s").str.stripPrefix("a"), map((s) => (s.startsWith("a") ? s.slice(1) : s)));
        check(col("s").str.stripSuffix("🦀"), map((s) => (s.endsWith("🦀") ? s.slice(0, -2) : s)));
        for (const n of [0, 2, 5, -1, -3]) {
          check(col("s").str.head(n), map((s) => cps(s).slice(0, n >= 0 ? n : Math.max(0, cps(s).length + n)).join("")));
          check(col("s").str.tail(n), map((s) => cps(s).slice(n >= 0 ? Math.max(0, cps(s).length - n) : -n).join("")));
        }
        check(col("s").str.padStart(6), map((s) => padRef(s, 6, " ", true)));
        check(col("s").str.padEnd(7, "é"), map((s) => padRef(s, 7, "é", false)));
        check(col("s").str.padStart(5, "🦀"), map((s) => padRef(s, 5, "🦀", true)));
        check(col("s").str.padEnd(0), map((s) => s));
        check(col("s").str.zfill(6), map((s) => zfillRef(s, 6)));
        check(col("s").str.reverse(), map((s) => cps(s).reverse().join("")));
        check(col("s").str.reverse().str.reverse(), map((s) => s));
      }
    });
  }

  it("compose with other expressions and keep nulls", () => {
    const df = new DataFrame({ s: ["  Ab ", null, "x"] });
    const out = df.select(col("s").str.strip().str.toUpperCase().str.padStart(4, ".").alias("o"), col("s").str.strip().str.len().alias("n"));
    expect(out.getColumn("o").toArray()).toEqual(["..AB", null, "...X"]);
    expect(out.getColumn("n").toArray()).toEqual([2, null, 1]);
    expect(new DataFrame({ s: ["a"] }).slice(0, 0).select(col("s").str.padStart(3).alias("o")).height).toBe(0);
  });

  it("concatStr and format join values row by row", () => {
    const a = randomStrings(5003, 1), b = randomStrings(5003, 2);
    const n = Array.from({ length: 5003 }, (_, i) => (i % 11 === 5 ? null : (i * 7919) % 2001 - 1000));
    const nn = new DataFrame({ n }).select(col("n").cast("int32").alias("n"));
    const got = new DataFrame({ a, b }).select(
        concatStr(["a", "b"], { separator: "·" }).alias("j"),
        concatStr(["a", "b", lit("!")], { separator: ", ", ignoreNulls: true }).alias("k"),
        format("[{}|{}]", "a", col("b")).alias("f"),
      );
    const either = (x: string | null, y: string | null, f: (x: string, y: string) => string) => (x === null || y === null ? null : f(x, y));
    expect(got.getColumn("j").toArray()).toEqual(a.map((x, i) => either(x, b[i] as string | null, (p, q) => `${p}·${q}`)));
    expect(got.getColumn("k").toArray()).toEqual(a.map((x, i) => [x, b[i], "!"].filter((v) => v !== null).join(", ")));
    expect(got.getColumn("f").toArray()).toEqual(a.map((x, i) => either(x, b[i] as string | null, (p, q) => `[${p}|${q}]`)));
    const nums = nn.select(format("n={}", "n").alias("f")).getColumn("f").toArray();
    expect(nums).toEqual(n.map((v) => (v === null ? null : `n=${v}`)));
    expect(got.getColumn("j").dtype).toBe("utf8");
    expectCode(() => format("{} {}", "a"), "ERR_INVALID_ARGUMENT");
    expectCode(() => format("{", "a"), "ERR_INVALID_ARGUMENT");
    expect(new DataFrame({ a: ["x"] }).select(format("{{{}}}", "a").alias("f")).getColumn("f").toArray()).toEqual(["{x}"]);
    expectCode(() => concatStr([]), "ERR_INVALID_ARGUMENT");
  });

  it("reject bad arguments with typed errors", () => {
    const df = new DataFrame({ s: ["a"], n: [1] });
    expectCode(() => df.select(col("s").str.padStart(3, "ab")), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.select(col("s").str.padStart(3, "")), "ERR_INVALID_ARGUMENT");
    expectCode(() => col("s").str.padStart(-1), "ERR_INVALID_ARGUMENT");
    expectCode(() => col("s").str.zfill(1.5), "ERR_INVALID_ARGUMENT");
    expectCode(() => col("s").str.head(0.5), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.select(col("n").str.strip()), "ERR_DTYPE");
    expectCode(() => df.select(col("n").str.reverse()), "ERR_DTYPE");
    expect(df.getColumn("s").toArray()).toEqual(["a"]);
  });
});
