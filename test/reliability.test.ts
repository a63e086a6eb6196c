// Faults found by trying gpudf as a user would: each test failed before its fix.
import { spawnSync } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DataFrame, readCSV, readCSVSync, readParquet } from "../src/index.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const TSX_CLI = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

describe("input memory that JS can detach or share", () => {
  it("readCSV parses its own copy: transferring the buffer away and overwriting it mid-parse changes nothing", async () => {
    let text = "k,v\n";
    for (let i = 0; i < 300_000; i++) text += `${i},${i * 2}\n`;
    const bytes = new Uint8Array(Buffer.from(text));
    const pending = readCSV(bytes);
    // The ArrayBuffer moves to `moved` (bytes is detached) and its memory is rewritten while
    // the worker thread parses.
    const moved = structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
    new Uint8Array(moved).fill(0x39);
    expect(bytes.byteLength).toBe(0);
    const df = await pending;
    expect(df.columns).toEqual(["k", "v"]);
    expect(df.height).toBe(300_000);
    expect(df.getColumn("v").sum()).toBe(2n * ((299_999n * 300_000n) / 2n));
    df.dispose();
  });

  it("a CSV source and a column over a SharedArrayBuffer read like any other", async () => {
    const text = Buffer.from("a,b\n1,x\n2,y\n");
    const shared = new Uint8Array(new SharedArrayBuffer(text.length));
    shared.set(text);
    const want = [
      { a: 1n, b: "x" },
      { a: 2n, b: "y" },
    ];
    expect(readCSVSync(shared).toRecords()).toEqual(want);
    expect((await readCSV(shared)).toRecords()).toEqual(want);
    const f = new Float64Array(new SharedArrayBuffer(24));
    f.set([1.5, -2, 3]);
    expect(new DataFrame({ f }).getColumn("f").toArray()).toEqual([1.5, -2, 3]);
  });
});

describe("a failed write leaves what was at the path", () => {
  // A child process whose files may not grow past 64 KiB (ulimit -f; SIGXFSZ ignored, so the
  // write fails with EFBIG instead of killing it): every writer fails mid-file.
  it("csv, parquet and ipc over an existing file: ERR_IO, the old bytes intact, no temporary file left", () => {
    const dir = mkdtempSync(join(tmpdir(), "gpudf-write-"));
    try {
      const file = join(dir, "child.mts");
      writeFileSync(
        file,
        `process.on("SIGXFSZ", () => {});
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DataFrame, IoError } from ${JSON.stringify(join(ROOT, "src", "index.ts"))};
const dir = ${JSON.stringify(dir)};
const df = new DataFrame({ x: Float64Array.from({ length: 50_000 }, (_, i) => Math.sin(i) * 1e6) });
const out: Record<string, unknown> = {};
const writers: [string, (p: string) => unknown][] = [
  ["csv", (p) => df.writeCSV(p)], ["parquet", (p) => df.writeParquet(p)], ["ipc", (p) => df.writeIPC(p)],
];
for (const [name, write] of writers) {
  const p = join(dir, name + ".out");
  writeFileSync(p, "precious");
  try {
    await write(p);
    out[name] = "written";
  } catch (e) {
    out[name] = { code: (e as IoError).code, io: e instanceof IoError, content: readFileSync(p, "utf8") };
  }
}
out.leftovers = readdirSync(dir).filter((f) => f.includes("gpudf"));
process.stdout.write("@@JSON@@" + JSON.stringify(out) + "\\n");
`,
      );
      const r = spawnSync("bash", ["-c", `ulimit -f 64 && exec "${process.execPath}" "${TSX_CLI}" "${file}"`], {
        cwd: ROOT,
        env: { ...process.env, TSX_DISABLE_CACHE: "1" },
        encoding: "utf8",
        timeout: 120_000,
      });
      const info = `status=${r.status} signal=${r.signal}\n${r.stdout}\n${r.stderr}`;
      const line = r.stdout.split("\n").find((l) => l.startsWith("@@JSON@@"));
      expect(line, info).toBeDefined();
      const failed = { code: "ERR_IO", io: true, content: "precious" };
      expect(JSON.parse(line!.slice(8))).toEqual({ csv: failed, parquet: failed, ipc: failed, leftovers: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!isCharDevice("/dev/full"))("a device that fails every write (/dev/full) is not removed", async () => {
    const df = new DataFrame({ x: Float64Array.from({ length: 10_000 }, (_, i) => i) });
    await expect(df.writeParquet("/dev/full")).rejects.toMatchObject({ code: "ERR_IO" });
    expect(() => df.writeCSV("/dev/full")).toThrow(expect.objectContaining({ code: "ERR_IO" }));
    await expect(df.writeIPC("/dev/full")).rejects.toMatchObject({ code: "ERR_IO" });
    expect(isCharDevice("/dev/full")).toBe(true);
  });

  it("a successful write replaces the file a symbolic link names, and keeps the link", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gpudf-link-"));
    try {
      const real = join(dir, "real.csv");
      const link = join(dir, "link.csv");
      writeFileSync(real, "old");
      symlinkSync(real, link);
      new DataFrame({ a: [1, 2] }).writeCSV(link);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readFileSync(real, "utf8")).toBe("a\n1\n2\n");
      await new DataFrame({ b: ["x"] }).writeParquet(link);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect((await readParquet(real)).toRecords()).toEqual([{ b: "x" }]);
      expect(readdirSync(dir).sort()).toEqual(["link.csv", "real.csv"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function isCharDevice(path: string): boolean {
  try {
    return statSync(path).isCharacterDevice();
  } catch {
    return false;
  }
}
