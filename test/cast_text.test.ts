// Casts between text and numbers / booleans / dates: against JS's own parsers and printers
// (Number(), BigInt(), String()), which implement correctly rounded parsing and shortest
// round-trip printing; none of the references calls gpudf.
import { describe, expect, it } from "vitest";
import { col, DataFrame, type DType } from "../src/index.js";
import { expectCode } from "./helpers.js";
import { uniform } from "./support/random.js";


const digits = (r: () => number, n: number) => Array.from({ length: n }, () => String(Math.floor(r() * 10))).join("");

/** Random float texts: signs, leading zeros, fractions, exponents, up to 25 significant digits. */
function floatTexts(n: number, seed: number, maxDigits = 25): string[] {
  const r = uniform(seed);
  return Array.from({ length: n }, () => {
    const sign = r() < 0.3 ? "-" : r() < 0.1 ? "+" : "";
    const int = digits(r, Math.floor(r() * Math.min(maxDigits, 12)));
    const frac = r() < 0.6 ? "." + digits(r, Math.floor(r() * Math.min(maxDigits, 14))) : "";
    let body = int + frac;
    if (!/\d/.test(body)) body = "0" + body;
    const exp = r() < 0.5 ? `e${r() < 0.5 ? "-" : ""}${Math.floor(r() * (r() < 0.2 ? 330 : 30))}` : "";
    return sign + body + exp;
  });
}

const col1 = (df: DataFrame, e: ReturnType<typeof col>) => df.select(e.alias("o")).getColumn("o");

describe("utf8 -> numbers", () => {
  it("parses floats correctly rounded (float64), as Number() does", () => {
    const texts = [...floatTexts(20_000, 1), "1.", ".5", "0", "-0", "1e308", "1.8e308", "2e-324", "4.9e-324", "1e-400",
      "123456789012345678901234567890", "0.1000000000000000055511151231257827", "9007199254740993", "inf", "-Infinity", "NaN", "nan"];
    const got = col1(new DataFrame({ s: texts }), col("s").cast("float64")).toArray() as (number | null)[];
    const ref = (s: string) => (/^[+-]?inf(inity)?$/i.test(s) ? (s.startsWith("-") ? -Infinity : Infinity) : /^[+-]?nan$/i.test(s) ? NaN : Number(s));
    const bad = texts.map((s, i) => [s, got[i], ref(s)] as const).filter(([, g, w]) => !Object.is(g, w));
    expect(bad.slice(0, 5)).toEqual([]);
  });

  it("parses float32 as the nearest float", () => {
    const texts = floatTexts(5000, 2, 9).filter((s) => Math.abs(Number(s)) < 1e38 && (Number(s) === 0 || Math.abs(Number(s)) > 1e-37));
    const got = col1(new DataFrame({ s: texts }), col("s").cast("float32")).toArray() as number[];
    expect(got).toEqual(texts.map((s) => Math.fround(Number(s))));
  });

  it("rejects what is not a number (null, or ERR_CAST when strict)", () => {
    const bad = ["", " 1", "1 ", "1e", "e5", ".", "-", "+", "1.2.3", "0x10", "1_000", "١٢", "--1", "infinit", "1e+", "abc"];
    const df = new DataFrame({ s: [...bad, null] });
    for (const dt of ["float64", "float32", "int64", "int32", "uint64", "bool"] as DType[]) {
      expect(col1(df, col("s").cast(dt)).toArray()).toEqual(Array(bad.length + 1).fill(null));
    }
    expectCode(() => df.select(col("s").cast("float64", { strict: true })), "ERR_CAST");
    expect(() => new DataFrame({ s: ["1", null, "2"] }).select(col("s").cast("int8", { strict: true }))).not.toThrow();
  });

  it("parses integers exactly with range checks per dtype", () => {
    const r = uniform(3);
    const texts = Array.from({ length: 5000 }, () => {
      const len = 1 + Math.floor(r() * 21);
      return (r() < 0.4 ? "-" : r() < 0.1 ? "+" : "") + digits(r, len);
    });
    texts.push("9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551615", "18446744073709551616", "-0", "007");
    const df = new DataFrame({ s: texts });
    const ranges: Record<string, [bigint, bigint]> = {
      int8: [-128n, 127n], int16: [-32768n, 32767n], int32: [-(2n ** 31n), 2n ** 31n - 1n], int64: [-(2n ** 63n), 2n ** 63n - 1n],
      uint8: [0n, 255n], uint16: [0n, 65535n], uint32: [0n, 2n ** 32n - 1n], uint64: [0n, 2n ** 64n - 1n],
    };
    for (const [dt, [lo, hi]] of Object.entries(ranges)) {
      const got = col1(df, col("s").cast(dt as DType)).toArray();
      const want = texts.map((s) => {
        const v = BigInt(s);
        if (v < lo || v > hi || (lo === 0n && s.startsWith("-"))) return null;
        return dt.endsWith("64") ? v : Number(v);
      });
      expect(got).toEqual(want);
    }
  });

  it("parses booleans and ISO dates and timestamps", () => {
    const df = new DataFrame({ s: ["true", "FALSE", "True", "yes", "1", null] });
    expect(col1(df, col("s").cast("bool")).toArray()).toEqual([true, false, true, null, null, null]);
    const t = new DataFrame({ s: ["2024-03-05", "2024-03-05T14:30", "2024-03-05 14:30:15.5Z", "2024-03-05T14:30:15+01:00", "2024-02-30", "x"] });
    expect((col1(t, col("s").cast("timestamp[ms]")).toArray() as (Date | null)[]).map((d) => d?.getTime() ?? null)).toEqual([
      Date.UTC(2024, 2, 5), Date.UTC(2024, 2, 5, 14, 30), Date.UTC(2024, 2, 5, 14, 30, 15, 500), Date.UTC(2024, 2, 5, 13, 30, 15), null, null,
    ]);
    expect((col1(t, col("s").cast("date32")).toArray() as (Date | null)[]).map((d) => d?.getTime() ?? null)).toEqual([
      Date.UTC(2024, 2, 5), null, null, null, null, null,
    ]);
    expectCode(() => t.select(col("s").cast("date32", { strict: true })), "ERR_CAST");
  });
});

describe("numbers -> utf8", () => {
  it("prints floats in the shortest text that reads back the same", () => {
    const r = uniform(4);
    const xs = Array.from({ length: 20_000 }, () => {
      const k = r();
      if (k < 0.3) return (r() - 0.5) * 10 ** Math.floor(r() * 40 - 20);
      if (k < 0.5) return Math.round((r() - 0.5) * 1e6) / 100;
      const buf = new DataView(new ArrayBuffer(8));
      buf.setUint32(0, Math.floor(r() * 2 ** 32));
      buf.setUint32(4, Math.floor(r() * 2 ** 32));
      return buf.getFloat64(0);
    });
    xs.push(0, -0, Infinity, -Infinity, NaN, 5e-324, 1.7976931348623157e308, 0.1, 1 / 3, 1e21, 1e-7, 123456789012345680000);
    const got = col1(new DataFrame({ s: xs }), col("s").cast("utf8")).toArray() as string[];
    const sig = (t: string) => t.replace(/^-/, "").replace(/e.*$/i, "").replace(".", "").replace(/^0+/, "").replace(/0+$/, "");
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i] as number, t = got[i] as string;
      if (Number.isNaN(x)) expect(t).toBe("NaN");
      else if (!Number.isFinite(x)) expect(t).toBe(x > 0 ? "inf" : "-inf");
      else {
        expect(Object.is(Number(t), x)).toBe(true);
        // As few significant digits as JS's shortest, unless written as a whole number.
        if (/[.e]/.test(t)) expect(sig(t)).toBe(sig(String(x)));
      }
    }
    // And back through the cast, bit for bit.
    const back = col1(new DataFrame({ s: got }), col("s").cast("float64")).toArray() as number[];
    expect(back.every((v, i) => Object.is(v, xs[i]))).toBe(true);
  });

  it("prints integers and booleans, keeps nulls, and large_utf8 on request", () => {
    const df = new DataFrame({ i: [-(2n ** 63n), 0n, 42n, 2n ** 63n - 1n, null] as (bigint | null)[] });
    expect(col1(df, col("i").cast("utf8")).toArray()).toEqual(["-9223372036854775808", "0", "42", "9223372036854775807", null]);
    for (const dt of ["int8", "uint8", "int16", "uint16", "int32", "uint32", "uint64"] as DType[]) {
      const v = df.select(col("i").cast(dt).alias("v"));
      const want = (v.getColumn("v").toArray() as (number | bigint | null)[]).map((x) => (x === null ? null : String(x)));
      expect(col1(v, col("v").cast("large_utf8")).toArray()).toEqual(want);
      expect(col1(v, col("v").cast("large_utf8")).dtype).toBe("large_utf8");
    }
    const b = new DataFrame({ b: [true, false, null] });
    expect(col1(b, col("b").cast("utf8")).toArray()).toEqual(["true", "false", null]);
    const d = new DataFrame({ s: ["2024-03-05"] }).select(col("s").str.toDate().alias("d"));
    expect(col1(d, col("d").cast("utf8")).toArray()).toEqual(["2024-03-05"]);
  });

  it("strict numeric casts name the first value that does not fit", () => {
    const df = new DataFrame({ x: [1, 2, 300, 4] });
    let msg = "";
    try {
      df.select(col("x").cast("uint8", { strict: true }));
    } catch (e) {
      expect((e as { code: string }).code).toBe("ERR_CAST");
      msg = (e as Error).message;
    }
    expect(msg).toContain("row 2");
    expect(msg).toContain("300");
    expect(col1(df, col("x").cast("uint8")).toArray()).toEqual([1, 2, null, 4]);
  });
});
