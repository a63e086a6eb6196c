// The fuzzers of test/fuzz/ at CI size: 10,000 seeded cases over the API, the CSV, JSON, IPC and
// Parquet readers and the native expression decoder, each batch in a child process with a
// timeout. `npm run fuzz -- --cases N` runs as many as asked.
import { describe, expect, it } from "vitest";
import { fuzz, summary } from "./fuzz/run.js";

describe("fuzz", () => {
  it("10,000 cases: no crash, no hang, every error a GpudfError, every frame intact after a failed call", async () => {
    // The slower targets get fewer cases so the run takes about a minute.
    const counts = await fuzz({
      cases: 10_000,
      seed: Number(process.env["GPUDF_FUZZ_SEED"] ?? 1),
      jobs: 2,
      weights: { api: 1, parquet: 1, ipc: 2, csv: 3, json: 2, expr: 3 },
      timeoutMs: 120_000,
    });
    console.log(summary(counts));
    expect(counts.failures).toEqual([]);
    expect(counts.cases).toBe(10_000);
    expect(counts.crashes + counts.hangs + counts.nonGpudfErrors).toBe(0);
  }, 600_000);
});
