/** A seeded generator (mulberry32) and the helpers the fuzz targets draw from. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** The input with 1–4 bytes inserted, deleted or flipped (or a truncation), at random places. */
export function mutateBytes(rng: Rng, input: Uint8Array): Uint8Array {
  let b = Uint8Array.from(input);
  const edits = 1 + rng.int(4);
  const special = [0, 1, 0x7f, 0x80, 0xff];
  for (let e = 0; e < edits; e++) {
    const at = rng.int(b.length + 1);
    const byte = rng.chance(0.5) ? rng.pick(special) : rng.int(256);
    const kind = rng.int(10);
    if (kind < 3) b = Uint8Array.from([...b.subarray(0, at), byte, ...b.subarray(at)]);
    else if (kind < 6 && b.length > 0) b = Uint8Array.from([...b.subarray(0, at), ...b.subarray(at + 1)]);
    else if (kind < 9 && at < b.length) b[at] = (b[at] as number) ^ (1 << rng.int(8)) ^ (rng.chance(0.3) ? byte : 0);
    else if (kind === 9) b = b.subarray(0, at);
  }
  return b;
}
