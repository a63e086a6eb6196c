// The two libraries the in-process micro checks compare: gpudf (the built dist/, or src/ when run
// through tsx before a build) and nodejs-polars; and the checks' shared pieces: a seeded
// xorshift32 stream and best-of-n timing.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

let loaded;
try {
  loaded = await import("../../dist/index.js");
} catch {
  loaded = await import("../../src/index.ts");
}

export const gpudf = loaded;
export const pl = require("nodejs-polars");

/** A xorshift32 stream from `seed`: each call the next uint32. */
export function xorshift32(seed) {
  let state = seed >>> 0;
  return () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state;
  };
}

/** The fastest of `reps` runs of fn, in ms, after a warm-up; results with dispose() are released. */
export function bestOf(reps, fn) {
  fn()?.dispose?.();
  const ms = [];
  for (let r = 0; r < reps; r++) {
    const t0 = process.hrtime.bigint();
    const out = fn();
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    out?.dispose?.();
  }
  return Math.min(...ms);
}

/** bestOf for a function returning a Promise (awaited inside the timed section). */
export async function bestOfAsync(reps, fn) {
  await fn();
  const ms = [];
  for (let r = 0; r < reps; r++) {
    const t0 = process.hrtime.bigint();
    await fn();
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return Math.min(...ms);
}

/**
 * Times each case [name, gpudf fn, polars fn, duckdb fn returning a Promise] side by side and
 * prints one row per case with gpudf's time over the faster peer's (a polars case that throws is
 * reported and left out of the ratio).
 */
export async function compareWithPeers(cases, reps, nameWidth = 11) {
  console.log(`${"op".padEnd(nameWidth)} gpudf ms  polars ms  duckdb ms  gpudf/best-peer`);
  for (const [name, g, p, d] of cases) {
    const tg = bestOf(reps, g);
    let tp = NaN;
    try {
      tp = bestOf(reps, p);
    } catch (e) {
      console.error(`polars ${name}: ${e.message}`);
    }
    const td = await bestOfAsync(reps, d);
    const best = Math.min(...[tp, td].filter((x) => !Number.isNaN(x)));
    console.log(`${name.padEnd(nameWidth)} ${tg.toFixed(1).padStart(8)} ${tp.toFixed(1).padStart(10)} ${td.toFixed(1).padStart(10)} ${(tg / best).toFixed(2).padStart(16)}`);
  }
}
