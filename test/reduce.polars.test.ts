// Differential check against nodejs-polars (a devDependency): random columns with nulls, NaN and
// infinities; every reduction Polars shares with us must agree.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { Series } from "../src/index.js";

const pl = createRequire(import.meta.url)("nodejs-polars");

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function randomFloats(n: number, seed: number): (number | null)[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => {
    const u = r();
    if (u < 0.1) return null;
    if (u < 0.12) return NaN;
    if (u < 0.13) return u < 0.125 ? Infinity : -Infinity;
    return Math.round((r() - 0.5) * 2000) / 8;
  });
}

const close = (got: unknown, want: unknown) =>
  typeof want === "number" && typeof got === "number" && Number.isFinite(want)
    ? Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want))
    : Object.is(got, want);

function polarsValue(values: unknown[], dtype: unknown, expr: unknown): unknown {
  return pl.DataFrame({ a: pl.Series("a", values, dtype) }).select(expr).toRecords()[0].a;
}

describe("reductions agree with nodejs-polars", () => {
  for (const [n, seed, finite] of [[1, 1, false], [33, 2, false], [1000, 3, true], [1000, 4, false], [20_000, 5, true]] as const) {
    it(`float64 n=${n} seed=${seed}${finite ? " finite" : ""}`, () => {
      const values = randomFloats(n, seed).map((v) => (finite && v !== null && !Number.isFinite(v) ? 1.5 : v));
      const s = new Series("a", values);
      const col = pl.col("a");
      const cases: [string, unknown, unknown][] = [
        ["sum", s.sum(), polarsValue(values, pl.Float64, col.sum())],
        ["mean", s.mean(), polarsValue(values, pl.Float64, col.mean())],
        ["min", s.min(), polarsValue(values, pl.Float64, col.min())],
        ["max", s.max(), polarsValue(values, pl.Float64, col.max())],
        ["std", s.std(), polarsValue(values, pl.Float64, col.std())],
        ["var", s.var(), polarsValue(values, pl.Float64, col.var())],
        ["median", s.median(), polarsValue(values, pl.Float64, col.median())],
        ["quantile .3", s.quantile(0.3), polarsValue(values, pl.Float64, col.quantile(0.3, "linear"))],
        ["first", s.first(), polarsValue(values, pl.Float64, col.first())],
        ["last", s.last(), polarsValue(values, pl.Float64, col.last())],
        ["argMin", s.argMin(), polarsValue(values, pl.Float64, col.argMin())],
        ["argMax", s.argMax(), polarsValue(values, pl.Float64, col.argMax())],
        ["count", s.count(), polarsValue(values, pl.Float64, col.count())],
        // Polars counts null as a distinct value; gpudf counts non-null values only.
        ["nUnique", s.nUnique(), polarsValue(values, pl.Float64, col.dropNulls().nUnique())],
      ];
      for (const [what, got, want] of cases) {
        const w = typeof got === "bigint" && typeof want === "number" ? BigInt(want) : want;
        expect(close(got, w), `${what}: gpudf ${String(got)}, polars ${String(want)}`).toBe(true);
      }
    });
  }

  it("int32 and utf8 min/max/sum/median and value counts", () => {
    const r = rng(9);
    const ints = Array.from({ length: 5000 }, () => (r() < 0.1 ? null : Math.floor(r() * 200) - 100));
    const s = new Series("a", ints, "int32");
    expect(s.sum()).toBe(BigInt(polarsValue(ints, pl.Int32, pl.col("a").sum()) as number));
    expect(s.median()).toBe(polarsValue(ints, pl.Int32, pl.col("a").median()));
    expect(s.max()).toBe(polarsValue(ints, pl.Int32, pl.col("a").max()));
    const strs = ints.map((v) => (v === null ? null : `k${v % 37}é`));
    const t = new Series("a", strs);
    expect(t.min()).toBe(polarsValue(strs, pl.Utf8, pl.col("a").min()));
    expect(t.max()).toBe(polarsValue(strs, pl.Utf8, pl.col("a").max()));
    const ours = new Map(t.valueCounts().toRecords().map((row) => [row["a"], Number(row["count"])]));
    const theirs = pl.Series("a", strs, pl.Utf8).valueCounts().toRecords() as { a: unknown; count: number }[];
    expect(ours.size).toBe(theirs.length);
    for (const row of theirs) expect(ours.get(row.a)).toBe(row.count);
  });
});
