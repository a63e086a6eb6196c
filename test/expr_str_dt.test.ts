// String and temporal expressions against independent JS references (code points via Array.from,
// bytes via TextEncoder, calendar fields via Date's UTC getters).
import { describe, expect, it } from "vitest";
import { col, lit, type DType } from "../src/index.js";
import { diffValues, NON_ASCII, rawColumn, type Raw } from "./helpers.js";
import { frameOf, run } from "./expr_ref.js";

const enc = new TextEncoder();
const chars = (s: string) => Array.from(s);

function sliceRef(s: string, start: number, length?: number): string {
  const cs = chars(s);
  const b = start < 0 ? Math.max(cs.length + start, 0) : start;
  return cs.slice(b, length === undefined ? undefined : b + length).join("");
}

const WORDS: Raw[] = ["", "a", "abc", "héllo", "日本語", "🦀🦀x", "Ünïcödé ✓", null, "ABCabc", "ÀÉÎõü Ωμέγα Привет", "xyzxyz", "ab"];

describe("string expressions", () => {
  for (const dt of ["utf8", "large_utf8"] as DType[]) {
    for (const n of [0, 33, 100_003]) {
      it(`${dt} over ${n} rows (sliced too)`, () => {
        const gen = rawColumn(dt, n, "some");
        const raw = gen.map((v, i) => (i < WORDS.length ? (WORDS[i] as Raw) : v));
        const full = frameOf({ s: [dt, raw] });
        for (const [df, vals] of [[full, raw], [full.slice(3, Math.max(0, n - 5)), raw.slice(3, Math.max(3, n - 2))]] as const) {
          const map = <T>(f: (s: string) => T) => vals.map((v) => (v === null ? null : f(v as string)));
          const check = (e: ReturnType<typeof col>, want: unknown[], dtype?: DType) => {
            const got = run(df, e);
            expect(diffValues(got.values, want)).toBeNull();
            if (dtype) expect(got.dtype).toBe(dtype);
          };
          check(col("s").str.len(), map((s) => chars(s).length), "uint32");
          check(col("s").str.lenBytes(), map((s) => enc.encode(s).length), "uint32");
          check(col("s").str.contains("b"), map((s) => s.includes("b")), "bool");
          check(col("s").str.contains("本"), map((s) => s.includes("本")));
          check(col("s").str.contains(""), map(() => true));
          check(col("s").str.startsWith("ab"), map((s) => s.startsWith("ab")));
          check(col("s").str.endsWith("🦀x"), map((s) => s.endsWith("🦀x")));
          check(col("s").str.slice(1, 2), map((s) => sliceRef(s, 1, 2)), dt);
          check(col("s").str.slice(-3), map((s) => sliceRef(s, -3)));
          check(col("s").str.slice(-30, 2), map((s) => sliceRef(s, -30, 2)));
          check(col("s").str.slice(2, 0), map(() => ""));
          check(col("s").eq("abc"), map((s) => s === "abc"));
          check(col("s").gt("ab"), map((s) => Buffer.compare(Buffer.from(s), Buffer.from("ab")) > 0));
          check(col("s").str.slice(1).str.len(), map((s) => Math.max(chars(s).length - 1, 0)));
        }
      });
    }
  }

  it("toUpperCase / toLowerCase follow the full Unicode mappings (lengths may change)", () => {
    const df = frameOf({ s: ["utf8", ["abcXYZ", "àéîõüÿß", "ÀÉÎÕÜ", "ωμέγα ΩΜΓ", "привет ПРИВЕТ", "日本🦀", null, ""]] });
    expect(run(df, col("s").str.toUpperCase()).values).toEqual(["ABCXYZ", "ÀÉÎÕÜŸSS", "ÀÉÎÕÜ", "ΩΜΈΓΑ ΩΜΓ", "ПРИВЕТ ПРИВЕТ", "日本🦀", null, ""]);
    expect(run(df, col("s").str.toLowerCase()).values).toEqual(["abcxyz", "àéîõüÿß", "àéîõü", "ωμέγα ωμγ", "привет привет", "日本🦀", null, ""]);
    const sliced = df.slice(1, 3);
    expect(run(sliced, col("s").str.toUpperCase().str.len()).values).toEqual([8, 5, 9]);
    expect(run(df, lit("MiXeD").str.toLowerCase()).values).toEqual(["mixed"]);
  });

  it("comparisons between utf8 and large_utf8 and with non-ASCII order by bytes", () => {
    const df = frameOf({ a: ["utf8", ["é", "z", "a", null]], b: ["large_utf8", ["e", "é", "a", "x"]] });
    expect(run(df, col("a").gt(col("b"))).values).toEqual([true, false, false, null]);
    expect(run(df, col("a").eq(col("b"))).values).toEqual([false, false, true, null]);
    expect(run(df, col("a").isIn(["z", "é"])).values).toEqual([true, true, false, null]);
  });
});

describe("temporal fields (UTC)", () => {
  const MS: Record<string, bigint> = { "timestamp[s]": 1000n, "timestamp[ms]": 1n };
  const toMs = (dt: DType, v: Raw): number => {
    if (dt === "date32") return (v as number) * 86_400_000;
    const x = v as bigint;
    const per = dt === "timestamp[us]" ? 1000n : dt === "timestamp[ns]" ? 1_000_000n : 0n;
    if (per === 0n) return Number(x * (MS[dt] as bigint));
    const q = x / per;
    return Number(x % per !== 0n && x < 0n ? q - 1n : q);  // floor
  };
  for (const dt of ["date32", "timestamp[s]", "timestamp[ms]", "timestamp[us]", "timestamp[ns]"] as DType[]) {
    for (const n of [1, 65, 100_003]) {
      it(`${dt} over ${n} rows`, () => {
        const raw = rawColumn(dt, n, "some", { dateSafe: true });
        const df = frameOf({ t: [dt, raw] }).slice(n > 3 ? 3 : 0);
        const vals = raw.slice(n > 3 ? 3 : 0);
        const d = (v: Raw) => new Date(toMs(dt, v));
        const fields: [string, (x: Date) => number, DType][] = [
          ["year", (x) => x.getUTCFullYear(), "int32"], ["month", (x) => x.getUTCMonth() + 1, "int8"],
          ["day", (x) => x.getUTCDate(), "int8"], ["weekday", (x) => ((x.getUTCDay() + 6) % 7) + 1, "int8"],
        ];
        if (dt !== "date32") {
          fields.push(["hour", (x) => x.getUTCHours(), "int8"], ["minute", (x) => x.getUTCMinutes(), "int8"], ["second", (x) => x.getUTCSeconds(), "int8"]);
        }
        for (const [name, f, dtype] of fields) {
          const got = run(df, (col("t").dt as unknown as Record<string, () => ReturnType<typeof col>>)[name]!());
          expect(got.dtype).toBe(dtype);
          expect(diffValues(got.values, vals.map((v) => (v === null ? null : f(d(v))))), `${name}`).toBeNull();
        }
      });
    }
  }
  it("hour on date32 is a dtype error; Date literals compare across units exactly", () => {
    const df = frameOf({ d: ["date32", [0, 1]], t: ["timestamp[us]", [1n, 86_400_000_000n]] });
    expect(() => run(df, col("d").dt.hour())).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    expect(run(df, col("t").gt(new Date(0))).values).toEqual([true, true]);
    expect(run(df, col("d").lt(new Date(86_400_000))).values).toEqual([true, false]);
    expect(run(df, col("d").eq(col("t"))).values).toEqual([false, true]);
  });
});

void NON_ASCII;
