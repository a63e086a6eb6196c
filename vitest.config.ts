import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Native code runs in forked processes: a crash there fails one file, not the runner.
    pool: "forks",
    testTimeout: 60_000,
  },
});
