// Arrow IPC files with bytes inserted, deleted or flipped: each read ends with a frame or a
// GpudfError, in a child process whose timeout turns a hang into a failure instead of a stalled run.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tableFromArrays, tableToIPC } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { IoError, readIPCSync } from "../src/index.js";
import { validateIPCFraming } from "../src/io/ipc_validate.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const TSX_CLI = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

function sample(format: "file" | "stream"): Uint8Array {
  const t = tableFromArrays({ a: Float64Array.from([1, 2, 3, 4]), s: ["x", "yy", null, "zzz"], i: Int32Array.from([1, 2, 3, 4]) });
  return tableToIPC(t, format);
}

function withDir<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "gpudf-ipc-"));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("IPC framing is validated before decoding", () => {
  it("a valid file and stream pass and read back", () => {
    withDir((dir) => {
      for (const format of ["file", "stream"] as const) {
        const bytes = sample(format);
        expect(() => validateIPCFraming(bytes)).not.toThrow();
        writeFileSync(join(dir, format), bytes);
        const df = readIPCSync(join(dir, format));
        expect(df.toRecords()).toEqual([
          { a: 1, s: "x", i: 1 },
          { a: 2, s: "yy", i: 2 },
          { a: 3, s: null, i: 3 },
          { a: 4, s: "zzz", i: 4 },
        ]);
        df.dispose();
      }
    });
  });

  it("one inserted zero byte that made the footer claim ~2^31 record batches: ERR_IO at once", () => {
    // Before the check this file looped inside apache-arrow's tableFromIPC for hours.
    const b = sample("file");
    const mutated = Uint8Array.from([...b.subarray(0, 101), 0, ...b.subarray(101)]);
    withDir((dir) => {
      const path = join(dir, "m.arrow");
      writeFileSync(path, mutated);
      const r = spawnSync(
        process.execPath,
        [TSX_CLI, "-e", `import { readIPCSync } from ${JSON.stringify(join(ROOT, "src", "index.ts"))};
try { readIPCSync(${JSON.stringify(path)}); console.log("read"); } catch (e) { console.log(e.code); }`],
        { timeout: 30_000, encoding: "utf8" },
      );
      expect(r.signal).toBeNull();
      expect(r.stdout.trim()).toBe("ERR_IO");
    });
  });

  it("a truncated stream, a huge metadata length and a buffer past the body are IoErrors", () => {
    withDir((dir) => {
      const stream = sample("stream");
      const cases: Uint8Array[] = [stream.subarray(0, 40), Uint8Array.from(stream)];
      new DataView((cases[1] as Uint8Array).buffer).setInt32(4, 0x7ffffff0, true);
      for (const [i, bytes] of cases.entries()) {
        const path = join(dir, `c${i}`);
        writeFileSync(path, bytes);
        expect(() => readIPCSync(path)).toThrow(IoError);
      }
    });
  });

  it("a Parquet file whose ARROW:schema is corrupt: the schema's framing is checked, the hints are dropped, the read ends", () => {
    // Parquet fuzz case 536 of seed 3 (test/fuzz): the mutated bytes leave the footer readable but
    // make the embedded Arrow schema claim fields without end. apache-arrow's decoder, given it
    // unchecked, filled the JS heap for 70 s and aborted the process.
    withDir((dir) => {
      const script = `import { readFileSync, writeFileSync } from "node:fs";
import { DataFrame, readParquet } from ${JSON.stringify(join(ROOT, "src", "index.ts"))};
import { native } from ${JSON.stringify(join(ROOT, "src", "native", "addon.ts"))};
import { validateIPCFraming } from ${JSON.stringify(join(ROOT, "src", "io", "ipc_validate.ts"))};
import { Rng, mutateBytes } from ${JSON.stringify(join(ROOT, "test", "fuzz", "rng.ts"))};
const seed = ${JSON.stringify(join(dir, "seed.parquet"))}, path = ${JSON.stringify(join(dir, "case.parquet"))};
const df = new DataFrame({ i: [1n, null, -3n, 4n], f: [1.5, 2, null, -0], s: ["x", "", null, "zz"], b: [true, null, false, true] });
await df.writeParquet(seed);
writeFileSync(path, mutateBytes(new Rng((3 * 1_000_003 + 536) >>> 0), readFileSync(seed)));
const schema = Buffer.from(native.parquetMetadata(path).arrowSchema, "base64");
let framing = "ok";
try { validateIPCFraming(schema); } catch { framing = "refused"; }
let read = "read";
try { (await readParquet(path)).dispose(); } catch (e) { read = e.code; }
console.log(schema.length > 0, framing, read);`;
      writeFileSync(join(dir, "case.mts"), script);
      const r = spawnSync(process.execPath, [TSX_CLI, join(dir, "case.mts")], { timeout: 60_000, encoding: "utf8" });
      expect(r.signal, r.stderr.slice(-2000)).toBeNull();
      // The case still reaches the schema check (its framing is refused); the read then ends.
      const [hasSchema, framing, read] = r.stdout.trim().split(" ");
      expect([hasSchema, framing]).toEqual(["true", "refused"]);
      expect(read === "read" || read?.startsWith("ERR_"), read).toBe(true);
    });
  });

  it("1,500 seeded mutations of a file and a stream each end in a frame or a GpudfError, none hangs", () => {
    const child = `
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tableFromArrays, tableToIPC } from "apache-arrow";
import { GpudfError, readIPCSync } from ${JSON.stringify(join(ROOT, "src", "index.ts"))};
import { Rng, mutateBytes } from ${JSON.stringify(join(ROOT, "test", "fuzz", "rng.ts"))};
const t = tableFromArrays({ a: Float64Array.from([1, 2, 3, 4]), s: ["x", "yy", null, "zzz"], i: Int32Array.from([1, 2, 3, 4]) });
const seeds = [tableToIPC(t, "file"), tableToIPC(t, "stream")];
const dir = mkdtempSync(join(tmpdir(), "gpudf-ipcm-"));
const counts = { frames: 0, typed: 0, other: [] };
for (let c = 0; c < 1500; c++) {
  const rng = new Rng(7919 * c + 1);
  const path = join(dir, "m.arrow");
  writeFileSync(path, mutateBytes(rng, seeds[c % 2]));
  try { readIPCSync(path).dispose(); counts.frames++; }
  catch (e) { if (e instanceof GpudfError) counts.typed++; else counts.other.push(String(e)); }
}
console.log(JSON.stringify(counts));`;
    const r = spawnSync(process.execPath, [TSX_CLI, "-e", child], { timeout: 120_000, encoding: "utf8" });
    expect(r.signal).toBeNull();
    const counts = JSON.parse(r.stdout.trim().split("\n").pop() as string) as { frames: number; typed: number; other: string[] };
    expect(counts.other).toEqual([]);
    expect(counts.frames + counts.typed).toBe(1500);
    expect(counts.typed).toBeGreaterThan(500);
  }, 150_000);
});
