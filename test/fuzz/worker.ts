/**
 * One fuzz batch in its own process: `tsx worker.ts TARGET SEED FIRST COUNT`. Before each case
 * it writes "C <case>" and after it "R <case> ok|fail <why>", so the parent that kills a hung
 * batch knows which case hung; it ends with "DONE".
 */
import { writeSync } from "node:fs";

import { FuzzFailure, TARGETS } from "./targets.js";
import { Rng } from "./rng.js";

/** writeSync that waits out EAGAIN (stdout is a non-blocking pipe when the parent is slow). */
function emit(line: string): void {
  const bytes = Buffer.from(line);
  for (let done = 0; done < bytes.length; ) {
    try {
      done += writeSync(1, bytes, done);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

const [target, seedText, firstText, countText] = process.argv.slice(2);
const run = TARGETS[target ?? ""];
if (!run) throw new Error(`unknown fuzz target ${target}`);
const seed = Number(seedText), first = Number(firstText), count = Number(countText);
for (let c = first; c < first + count; c++) {
  emit(`C ${c}\n`);
  try {
    await run(new Rng((seed * 1_000_003 + c) >>> 0));
    emit(`R ${c} ok\n`);
  } catch (err) {
    const why = err instanceof FuzzFailure ? err.message : `harness: ${String((err as Error)?.stack ?? err)}`;
    emit(`R ${c} fail ${why.replace(/\n/g, " | ").slice(0, 500)}\n`);
  }
}
emit("DONE\n");
