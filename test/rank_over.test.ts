// rank().over on frames large enough that the CPU backend buckets the rows of each partition
// over several blocks, and on layouts where it does not (one partition holding most rows,
// string values): every method, both directions, nulls, NaN and -0, against a reference
// written here (per partition: sort by value, stable in row order, rank the runs).
import { describe, expect, it } from "vitest";

import { col, DataFrame, Series, type DType } from "../src/index.js";
import { Rng } from "./support/random.js";

type Method = "average" | "min" | "max" | "dense" | "ordinal";
const METHODS: Method[] = ["average", "min", "max", "dense", "ordinal"];

/** The order of two non-null values: NaN above everything, -0 equal to 0 (strings: code units). */
function compare(a: number | string, b: number | string): number {
  if (typeof a === "string" || typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  const an = Number.isNaN(a), bn = Number.isNaN(b);
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function referenceRanks(keys: (number | null)[], values: (number | string | null)[], method: Method, descending: boolean): (number | null)[] {
  const parts = new Map<number | null, number[]>();
  keys.forEach((k, i) => {
    if (values[i] === null) return;
    let rows = parts.get(k);
    if (!rows) parts.set(k, (rows = []));
    rows.push(i);
  });
  const out: (number | null)[] = values.map(() => null);
  for (const rows of parts.values()) {
    const sign = descending ? -1 : 1;
    rows.sort((a, b) => sign * compare(values[a]!, values[b]!) || a - b);
    let p = 0, dense = 0;
    while (p < rows.length) {
      let q = p + 1;
      while (q < rows.length && compare(values[rows[q]!]!, values[rows[p]!]!) === 0) q++;
      dense++;
      for (let k = p; k < q; k++) {
        const r = method === "average" ? (p + 1 + q) / 2 : method === "min" ? p + 1 : method === "max" ? q : method === "dense" ? dense : k + 1;
        out[rows[k]!] = r;
      }
      p = q;
    }
  }
  return out;
}

function check(keys: (number | null)[], values: (number | string | null)[], dtype: DType): void {
  const df = new DataFrame({ k: new Series("k", keys, "int32"), v: new Series("v", values, dtype) });
  for (const method of METHODS) {
    for (const descending of [false, true]) {
      const got = df.select(col("v").rank({ method, descending }).over("k").alias("r")).getColumn("r");
      expect(got.dtype).toBe(method === "average" ? "float64" : "uint32");
      const want = referenceRanks(keys, values, method, descending);
      const have = got.toArray().map((x) => (x === null ? null : Number(x)));
      const bad = have.findIndex((x, i) => x !== want[i]);
      expect(bad, `${dtype} ${method} ${descending ? "desc" : "asc"}: row ${bad} has ${have[bad]}, want ${want[bad]}`).toBe(-1);
    }
  }
}

describe("rank().over on many rows", () => {
  const rows = 150_003;
  const rng = new Rng(77);
  const keys = Array.from({ length: rows }, () => (rng.next() < 0.02 ? null : rng.int(0, 999)));
  const special = [Number.NaN, -0, 0, Infinity, -Infinity];
  const floats = Array.from({ length: rows }, () => {
    const u = rng.next();
    return u < 0.1 ? null : u < 0.15 ? special[rng.int(0, special.length - 1)]! : rng.int(-50, 50) / 4;
  });

  it("float64 with nulls, NaN, -0 and ties, in 1000 partitions and a null partition", () => {
    check(keys, floats, "float64");
  });

  it("int64, bool and timestamp values", () => {
    const ints = floats.map((v) => (v === null || !Number.isFinite(v) ? null : Math.round(v * 4)));
    check(keys, ints, "int64");
    check(keys, floats.map((v) => (v === null ? null : v > 0)) as unknown as (number | null)[], "bool");
    check(keys, ints.map((v) => (v === null ? null : 1_700_000_000_000 + v * 1000)), "timestamp[ms]");
  });

  it("one partition holding most rows", () => {
    const skewed = keys.map((k, i) => (i % 10 === 0 ? k : 5));
    check(skewed, floats, "float64");
  });

  it("string values", () => {
    const strings = floats.map((v) => (v === null ? null : Number.isNaN(v) ? "nan" : `s${Math.abs(Math.trunc(v)) % 37}`));
    check(keys.slice(0, 20_000), strings.slice(0, 20_000), "utf8");
  });
});
