import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";

export default defineConfig({
  // The examples import "gpudf": resolve it to the sources (tsconfig's paths say the same).
  resolve: { alias: { gpudf: fileURLToPath(new URL("./src/index.ts", import.meta.url)) } },
  test: {
    include: ["test/**/*.test.ts"],
    // Native code runs in forked processes: a crash there fails one file, not the runner.
    pool: "forks",
    // vitest's default leaves one core idle; on a 2-core machine that is one file at a time,
    // while most files spend their time in single-threaded JavaScript. Two forks there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
  },
});
