import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DataFrame, device, memory } from "../src/index.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const INDEX_URL = pathToFileURL(join(ROOT, "src", "index.ts")).href;
const TSX_CLI = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

const tmp = mkdtempSync(join(tmpdir(), "gpudf-device-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface ChildResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  json: Record<string, unknown> | null;
}

let scriptNo = 0;

/**
 * Runs an ESM TypeScript snippet in a fresh Node process (through tsx) with the given
 * GPUDF_DEVICE. `gpudf` is bound to the library's index; the snippet prints one JSON line
 * through `out(obj)`.
 */
function runChild(gpudfDevice: string | undefined, body: string): ChildResult {
  const file = join(tmp, `child${scriptNo++}.mts`);
  writeFileSync(
    file,
    `const gpudf = await import(${JSON.stringify(INDEX_URL)});
const out = (o: unknown) => process.stdout.write("@@JSON@@" + JSON.stringify(o) + "\\n");
const errInfo = (e: any) => ({ name: e?.name, code: e?.code, gpudf: e instanceof gpudf.GpudfError, message: String(e?.message ?? e) });
${body}
`,
  );
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.GPUDF_DEVICE;
  if (gpudfDevice !== undefined) env.GPUDF_DEVICE = gpudfDevice;
  const r = spawnSync(process.execPath, [TSX_CLI, file], { cwd: ROOT, env, encoding: "utf8", timeout: 120_000 });
  const line = (r.stdout ?? "").split("\n").find((l) => l.startsWith("@@JSON@@"));
  return {
    status: r.status,
    signal: r.signal,
    stdout: r.stdout ?? "",
    stderr: r.stderr ?? "",
    json: line ? (JSON.parse(line.slice("@@JSON@@".length)) as Record<string, unknown>) : null,
  };
}

function describeChild(r: ChildResult): string {
  return `status=${r.status} signal=${r.signal}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
}

let parentDevice: "cpu" | "cuda" | "unknown" = "unknown";
try {
  parentDevice = device().name;
} catch {
  parentDevice = "unknown";
}

describe("device() in this process", () => {
  it('name is "cpu" or "cuda" with a non-empty reason', () => {
    const d = device();
    expect(["cpu", "cuda"]).toContain(d.name);
    expect(typeof d.reason).toBe("string");
    expect(d.reason.trim().length).toBeGreaterThan(0);
  });

  it("is stable across calls", () => {
    const a = device();
    const b = device();
    expect(b.name).toBe(a.name);
    expect(b.reason).toBe(a.reason);
  });

  it("on cuda: gpu.name is a non-empty string and gpu.memoryBytes > 0", () => {
    const d = device();
    if (d.name !== "cuda") {
      expect(d.name).toBe("cpu");
      return;
    }
    expect(d.gpu).toBeDefined();
    expect(typeof d.gpu!.name).toBe("string");
    expect(d.gpu!.name.length).toBeGreaterThan(0);
    expect(typeof d.gpu!.memoryBytes).toBe("number");
    expect(d.gpu!.memoryBytes).toBeGreaterThan(0);
  });

  it("memory() reports the active device (cuda entry only on cuda)", () => {
    const m = memory();
    expect(typeof m.cpu.liveBytes).toBe("number");
    expect(typeof m.cpu.peakBytes).toBe("number");
    expect(m.cpu.liveBytes).toBeGreaterThanOrEqual(0);
    expect(m.cpu.peakBytes).toBeGreaterThanOrEqual(m.cpu.liveBytes);
    if (device().name === "cuda") {
      expect(m.cuda).toBeDefined();
      expect(m.cuda!.peakBytes).toBeGreaterThanOrEqual(m.cuda!.liveBytes);
    } else {
      expect(m.cuda).toBeUndefined();
    }
  });

  it("data can be created and read on the active device", () => {
    const df = new DataFrame({ a: [1, 2, 3] });
    expect(df.getColumn("a").toArray()).toEqual([1, 2, 3]);
  });
});

describe("GPUDF_DEVICE in child processes", () => {
  it("GPUDF_DEVICE=cpu gives cpu, with a reason, and works", { timeout: 120_000 }, () => {
    const r = runChild(
      "cpu",
      `const d = gpudf.device();
const df = new gpudf.DataFrame({ a: [1, 2, null], s: ["🦀", null, "x"] });
out({ name: d.name, reason: d.reason, hasGpu: d.gpu !== undefined, recs: df.toRecords(), hasCudaMem: gpudf.memory().cuda !== undefined });`,
    );
    expect(r.status, describeChild(r)).toBe(0);
    expect(r.json, describeChild(r)).not.toBeNull();
    expect(r.json!.name).toBe("cpu");
    expect(typeof r.json!.reason).toBe("string");
    expect((r.json!.reason as string).length).toBeGreaterThan(0);
    expect(r.json!.recs).toEqual([
      { a: 1, s: "🦀" },
      { a: 2, s: null },
      { a: null, s: "x" },
    ]);
    expect(r.json!.hasCudaMem).toBe(false);
  });

  it("GPUDF_DEVICE unset (auto) picks the same device as this process", { timeout: 120_000 }, () => {
    const r = runChild(undefined, `out({ name: gpudf.device().name });`);
    expect(r.status, describeChild(r)).toBe(0);
    if (process.env.GPUDF_DEVICE === undefined || process.env.GPUDF_DEVICE === "auto") {
      expect(r.json!.name).toBe(parentDevice);
    } else {
      expect(["cpu", "cuda"]).toContain(r.json!.name);
    }
    const r2 = runChild("auto", `out({ name: gpudf.device().name });`);
    expect(r2.status, describeChild(r2)).toBe(0);
    expect(r2.json!.name).toBe(r.json!.name);
  });

  it("an invalid GPUDF_DEVICE -> InvalidArgumentError on first use (device() and new DataFrame)", { timeout: 120_000 }, () => {
    const r = runChild(
      "bogus",
      `let dev: unknown = null, df: unknown = null;
try { gpudf.device(); } catch (e) { dev = errInfo(e); }
try { new gpudf.DataFrame({ a: [1] }); } catch (e) { df = errInfo(e); }
out({ dev, df });`,
    );
    expect(r.status, describeChild(r)).toBe(0);
    expect(r.json, describeChild(r)).not.toBeNull();
    expect(r.json!.dev).toMatchObject({ name: "InvalidArgumentError", code: "ERR_INVALID_ARGUMENT", gpudf: true });
    expect(r.json!.df).toMatchObject({ name: "InvalidArgumentError", code: "ERR_INVALID_ARGUMENT", gpudf: true });
  });

  it("an invalid GPUDF_DEVICE fails the first data-creating call even before device() is called", { timeout: 120_000 }, () => {
    const r = runChild(
      "gpu0",
      `let df: unknown = null;
try { new gpudf.DataFrame({ a: [1] }); } catch (e) { df = errInfo(e); }
out({ df });`,
    );
    expect(r.status, describeChild(r)).toBe(0);
    expect(r.json!.df).toMatchObject({ name: "InvalidArgumentError", code: "ERR_INVALID_ARGUMENT", gpudf: true });
  });

  it.skipIf(parentDevice === "cuda")(
    "GPUDF_DEVICE=cuda where no GPU is usable -> DeviceUnavailableError, no crash",
    { timeout: 120_000 },
    () => {
      const r = runChild(
        "cuda",
        `let dev: unknown = null, df: unknown = null, ser: unknown = null, devOk: unknown = null;
try { devOk = gpudf.device(); } catch (e) { dev = errInfo(e); }
try { new gpudf.DataFrame({ a: [1, 2] }); } catch (e) { df = errInfo(e); }
try { new gpudf.Series("x", [1, 2]); } catch (e) { ser = errInfo(e); }
out({ dev, df, ser, devOk });`,
      );
      expect(r.signal, describeChild(r)).toBeNull();
      expect(r.status, describeChild(r)).toBe(0);
      expect(r.json, describeChild(r)).not.toBeNull();
      expect(r.json!.devOk).toBeNull();
      expect(r.json!.dev).toMatchObject({ name: "DeviceUnavailableError", code: "ERR_DEVICE_UNAVAILABLE", gpudf: true });
      expect(r.json!.df).toMatchObject({ name: "DeviceUnavailableError", code: "ERR_DEVICE_UNAVAILABLE", gpudf: true });
      expect(r.json!.ser).toMatchObject({ name: "DeviceUnavailableError", code: "ERR_DEVICE_UNAVAILABLE", gpudf: true });
      expect(((r.json!.dev as { message: string }).message ?? "").length).toBeGreaterThan(0);
    },
  );

  it.runIf(parentDevice === "cuda")("GPUDF_DEVICE=cuda on a GPU box gives cuda with gpu info", { timeout: 120_000 }, () => {
    const r = runChild(
      "cuda",
      `const d = gpudf.device();
const df = new gpudf.DataFrame({ a: [1, 2, null] });
out({ name: d.name, gpu: d.gpu, vals: df.getColumn("a").toArray(), cuda: gpudf.memory().cuda !== undefined });`,
    );
    expect(r.status, describeChild(r)).toBe(0);
    expect(r.json!.name).toBe("cuda");
    expect(typeof (r.json!.gpu as { name: string }).name).toBe("string");
    expect((r.json!.gpu as { memoryBytes: number }).memoryBytes).toBeGreaterThan(0);
    expect(r.json!.vals).toEqual([1, 2, null]);
    expect(r.json!.cuda).toBe(true);
  });
});
