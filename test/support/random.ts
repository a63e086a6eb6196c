/**
 * Seeded random tables for differential tests: the same seed gives the same table on every run
 * and backend, so a failure can be replayed.
 */
import type { DType } from "../../src/index.js";

/** splitmix64 over BigInt, reduced to doubles in [0, 1). */
export class Rng {
  #state: bigint;
  constructor(seed: number) {
    this.#state = BigInt.asUintN(64, BigInt(seed) * 0x9e3779b97f4a7c15n);
  }
  nextU64(): bigint {
    this.#state = BigInt.asUintN(64, this.#state + 0x9e3779b97f4a7c15n);
    let z = this.#state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  }
  /** Uniform in [0, 1). */
  next(): number {
    return Number(this.nextU64() >> 11n) / 2 ** 53;
  }
  /** Uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }
}

/** Rng(seed).next as a function: uniform doubles in [0, 1). */
export function uniform(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

/**
 * n random strings of 0..maxLen units drawn from `alphabet`, about 7 % null; the same seed gives
 * the same strings.
 */
export function randomTexts(n: number, seed: number, alphabet: readonly string[], maxLen: number): (string | null)[] {
  const r = uniform(seed);
  return Array.from({ length: n }, () => {
    if (r() < 0.07) return null;
    const len = Math.floor(r() * (maxLen + 1));
    return Array.from({ length: len }, () => alphabet[Math.floor(r() * alphabet.length)]).join("");
  });
}

export interface ColumnSpec {
  name: string;
  dtype: DType;
  /** Fraction of nulls (0..1). */
  nulls: number;
  /** Distinct values to draw from (small = many duplicates); default 1000. */
  cardinality?: number;
}

const WORDS = ["a", "b", "ab", "ba", "é", "日本", "🦀", "", "zz", "Abc", "abc", "x y"];

/** One random value of a dtype, in the JS form gpudf's constructors accept. */
export function randomValue(rng: Rng, dtype: DType, cardinality: number): unknown {
  const k = rng.int(0, cardinality - 1);
  switch (dtype) {
    case "bool":
      return k % 2 === 0;
    case "int8":
      return (k % 256) - 128;
    case "int16":
    case "int32":
      return k - Math.floor(cardinality / 2);
    case "uint8":
      return k % 256;
    case "uint16":
    case "uint32":
      return k;
    case "int64":
      return BigInt(k - Math.floor(cardinality / 2)) * 1_000_003n;
    case "uint64":
      return BigInt(k) * 1_000_003n;
    case "float32":
      return Math.fround((k - cardinality / 2) / 8);
    case "float64":
      return (k - cardinality / 2) / 16;
    case "utf8":
    case "large_utf8":
      return `${rng.pick(WORDS)}${k}`;
    case "date32":
      return new Date(Date.UTC(2000, 0, 1) + k * 86_400_000);
    default:
      return new Date(Date.UTC(2020, 0, 1) + k * 1000);
  }
}

/** Columns of random values with the requested null fraction. */
export function randomColumns(seed: number, rows: number, specs: readonly ColumnSpec[]): Record<string, unknown[]> {
  const rng = new Rng(seed);
  const out: Record<string, unknown[]> = {};
  for (const spec of specs) {
    const values: unknown[] = [];
    for (let i = 0; i < rows; i++) {
      values.push(rng.next() < spec.nulls ? null : randomValue(rng, spec.dtype, spec.cardinality ?? 1000));
    }
    out[spec.name] = values;
  }
  return out;
}
