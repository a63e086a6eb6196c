import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";

export default defineConfig({
  // The examples import "gpudf": resolve it to the sources (tsconfig's paths say the same).
  resolve: { alias: { gpudf: fileURLToPath(new URL("./src/index.ts", import.meta.url)) } },
  test: {
    include: ["test/**/*.test.ts"],
    // Native code runs in forked processes: a crash there fails one file, not the runner.
    pool: "forks",
    testTimeout: 60_000,
  },
});
