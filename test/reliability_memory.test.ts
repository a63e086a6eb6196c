// The memory limit: an allocation that would pass it fails with a typed error naming the
// request, the limit and the device, and every loaded frame stays intact and usable.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { col, DataFrame, device, InvalidArgumentError, memory, OutOfMemoryError, setMemoryLimit } from "../src/index.js";
import { parseByteSize } from "../src/device.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const TSX_CLI = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

describe("setMemoryLimit", () => {
  it("an op that needs more than the limit fails with ERR_OUT_OF_MEMORY; the frame is intact; lifted, it works", () => {
    const n = 2_000_000;
    const df = new DataFrame({ x: Float64Array.from({ length: n }, (_, i) => i) });
    const want = (n * (n - 1)) / 2;
    // The limit of the device the data lives on (the CUDA backend's own on a GPU or the simulator).
    const dev = device().name;
    const stats = () => memory()[dev]!;
    const before = setMemoryLimit({})[dev];
    const live = stats().liveBytes;
    const limit = live + 4 * 2 ** 20;
    try {
      expect(setMemoryLimit({ [dev]: limit })[dev]).toBe(limit);
      let caught: unknown;
      try {
        df.select(col("x").mul(2).alias("y"));
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(OutOfMemoryError);
      const oom = caught as OutOfMemoryError;
      expect(oom.code).toBe("ERR_OUT_OF_MEMORY");
      expect(oom.requestedBytes).toBeGreaterThanOrEqual(n * 8);
      expect(oom.limitBytes).toBe(limit);
      expect(oom.device).toBe(dev);
      expect(stats().liveBytes).toBe(live); // nothing of the failed op is left
      expect(df.getColumn("x").sum()).toBe(want);
      expect(df.height).toBe(n);
      // Small work under the limit still runs.
      expect(df.head(3).getColumn("x").toArray()).toEqual([0, 1, 2]);
    } finally {
      expect(setMemoryLimit({ [dev]: before < 0 ? null : before })[dev]).toBe(before);
    }
    const y = df.select(col("x").mul(2).alias("y"));
    expect(y.getColumn("y").sum()).toBe(2 * want);
    y.dispose();
    df.dispose();
  });

  it("limits are bytes, bigints or sizes with a suffix; anything else is InvalidArgumentError", () => {
    expect(parseByteSize("8G", "x")).toBe(8 * 2 ** 30);
    expect(parseByteSize("512M", "x")).toBe(512 * 2 ** 20);
    expect(parseByteSize("1.5k", "x")).toBe(1536);
    expect(parseByteSize("2GiB", "x")).toBe(2 * 2 ** 30);
    expect(parseByteSize(1000, "x")).toBe(1000);
    expect(parseByteSize(10n, "x")).toBe(10);
    for (const bad of ["", "abc", "-1", "1X", -5, 1.5, NaN]) expect(() => parseByteSize(bad, "x")).toThrow(InvalidArgumentError);
    expect(() => setMemoryLimit({ gpu: 1 } as never)).toThrow(InvalidArgumentError);
    expect(() => setMemoryLimit({ cpu: "lots" })).toThrow(InvalidArgumentError);
    expect(setMemoryLimit({}).cpu).toBe(-1); // no limit by default on CPU
  });

  it("GPUDF_MEMORY_LIMIT=1M at startup: a 8 MB column fails typed, a small one loads", () => {
    const code = `import { DataFrame } from ${JSON.stringify(join(ROOT, "src", "index.ts"))};
const small = new DataFrame({ x: [1, 2, 3] });
let out;
try { new DataFrame({ x: new Float64Array(1_000_000) }); out = "loaded"; }
catch (e) { out = { code: e.code, requested: e.requestedBytes, limit: e.limitBytes, device: e.device }; }
console.log(JSON.stringify({ out, small: small.getColumn("x").sum() }));`;
    const r = spawnSync(process.execPath, [TSX_CLI, "-e", code], {
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, GPUDF_MEMORY_LIMIT: "1M", GPUDF_DEVICE: "cpu" },
    });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout.trim())).toEqual({
      out: { code: "ERR_OUT_OF_MEMORY", requested: 8_000_000, limit: 2 ** 20, device: "cpu" },
      small: 6,
    });
  });
});
