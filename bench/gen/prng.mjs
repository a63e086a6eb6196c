// Deterministic pseudo-random numbers for the data generators.
//
// xoshiro128** (Blackman & Vigna) on 32-bit integer arithmetic, which V8 runs without BigInt or
// float rounding surprises; its 128-bit state is filled by splitmix32 from (seed, stream), so
// every chunk of a table gets its own independent stream and a chunk's values do not depend on
// how many worker processes produced the table.

/** splitmix32: expands one 32-bit value into a well-mixed sequence (state seeding only). */
function splitmix32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

const rotl = (x, k) => (x << k) | (x >>> (32 - k));

export class Rng {
  /** @param {number} seed base seed (108, as the db-benchmark generators) @param {number} stream chunk / purpose id */
  constructor(seed, stream = 0) {
    const mix = splitmix32(Math.imul(seed >>> 0, 0x2545f491) ^ Math.imul(stream + 1, 0x9e3779b1));
    this.a = mix(); this.b = mix(); this.c = mix(); this.d = mix();
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** next 32-bit unsigned integer */
  u32() {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a; this.d ^= this.b; this.b ^= this.c; this.a ^= this.d;
    this.c ^= t; this.d = rotl(this.d, 11);
    return result;
  }

  /** uniform double in [0, 1) with 53 random bits */
  float() {
    return ((this.u32() >>> 5) * 67108864 + (this.u32() >>> 6)) / 9007199254740992;
  }

  /** uniform integer in [1, n] (R's sample(n, size, TRUE) draws); one 32-bit draw, so the
   *  bias is below n / 2^32 (2e-4 for the largest domain used, 1e6) */
  int1(n) {
    return 1 + Math.floor(this.u32() * 2.3283064365386963e-10 * n);
  }

  /** uniform integer in [lo, hi] (inclusive): ranges of up to 2^16 values from one 32-bit draw
   *  (non-uniformity below 2^-16 of a value's share), wider ones from 53 random bits */
  int(lo, hi) {
    const n = hi - lo + 1;
    if (n <= 65536) return lo + Math.floor(this.u32() * 2.3283064365386963e-10 * n);
    return lo + Math.floor(this.float() * n);
  }

  /** in-place Fisher-Yates shuffle of a typed array (R's sample(x)) */
  shuffle(arr) {
    for (let i = arr.length - 1; i > 0; i--) {
      const j = Math.floor(this.float() * (i + 1));
      const t = arr[i]; arr[i] = arr[j]; arr[j] = t;
    }
    return arr;
  }

  /** k distinct indices of [0, n) (R's sample(n, k) without replacement), as a Uint8Array mask */
  pickMask(n, k) {
    const mask = new Uint8Array(n);
    // Floyd's algorithm: exactly k distinct picks, O(k) draws.
    for (let j = n - k; j < n; j++) {
      const t = Math.floor(this.float() * (j + 1));
      if (mask[t]) mask[j] = 1; else mask[t] = 1;
    }
    return mask;
  }
}
