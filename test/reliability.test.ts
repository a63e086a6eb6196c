// Faults found by trying gpudf as a user would: each test failed before its fix.
import { spawnSync } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { col, DataFrame, InvalidArgumentError, readCSV, readCSVSync, readParquet, Series } from "../src/index.js";

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
  it("csv, parquet, ipc, ndjson and json over an existing file: ERR_IO, the old bytes intact, no temporary file left", () => {
    const dir = mkdtempSync(join(tmpdir(), "gpudf-write-"));
    try {
      const file = join(dir, "child.mts");
      writeFileSync(
        file,
        `process.on("SIGXFSZ", () => {});
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DataFrame, IoError, writeNDJSON } from ${JSON.stringify(join(ROOT, "src", "index.ts"))};
const dir = ${JSON.stringify(dir)};
const df = new DataFrame({ x: Float64Array.from({ length: 50_000 }, (_, i) => Math.sin(i) * 1e6) });
const out: Record<string, unknown> = {};
const writers: [string, (p: string) => unknown][] = [
  ["csv", (p) => df.writeCSV(p)], ["parquet", (p) => df.writeParquet(p)], ["ipc", (p) => df.writeIPC(p)],
  ["csvSync", (p) => df.writeCSVSync(p)], ["ipcSync", (p) => df.writeIPCSync(p)],
  ["ndjson", (p) => writeNDJSON(df, p)], ["json", (p) => df.writeJSON(p)],
  ["ndjsonSync", (p) => df.writeNDJSONSync(p)], ["jsonSync", (p) => df.writeJSONSync(p)],
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
      expect(JSON.parse(line!.slice(8))).toEqual({
        csv: failed, parquet: failed, ipc: failed, csvSync: failed, ipcSync: failed,
        ndjson: failed, json: failed, ndjsonSync: failed, jsonSync: failed, leftovers: [],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!isCharDevice("/dev/full"))("a device that fails every write (/dev/full) is not removed", async () => {
    const df = new DataFrame({ x: Float64Array.from({ length: 10_000 }, (_, i) => i) });
    await expect(df.writeParquet("/dev/full")).rejects.toMatchObject({ code: "ERR_IO" });
    await expect(df.writeCSV("/dev/full")).rejects.toMatchObject({ code: "ERR_IO" });
    expect(() => df.writeCSVSync("/dev/full")).toThrow(expect.objectContaining({ code: "ERR_IO" }));
    expect(() => df.writeIPCSync("/dev/full")).toThrow(expect.objectContaining({ code: "ERR_IO" }));
    await expect(df.writeIPC("/dev/full")).rejects.toMatchObject({ code: "ERR_IO" });
    await expect(df.writeNDJSON("/dev/full")).rejects.toMatchObject({ code: "ERR_IO" });
    expect(() => df.writeJSONSync("/dev/full")).toThrow(expect.objectContaining({ code: "ERR_IO" }));
    expect(isCharDevice("/dev/full")).toBe(true);
  });

  it("a successful write replaces the file a symbolic link names, and keeps the link", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gpudf-link-"));
    try {
      const real = join(dir, "real.csv");
      const link = join(dir, "link.csv");
      writeFileSync(real, "old");
      symlinkSync(real, link);
      await new DataFrame({ a: [1, 2] }).writeCSV(link);
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

describe("values that do not fit are exact or a typed error, never wrapped", () => {
  it("a bigint beyond int64 becomes the nearest float64 (as Number(bigint) rounds it)", () => {
    const values: bigint[] = [2n ** 63n, -(2n ** 63n) - 1n, 2n ** 64n + 1n, (2n ** 53n + 1n) * 2n ** 20n + 1n, (2n ** 53n + 1n) * 2n ** 20n, -(10n ** 30n)];
    // Random magnitudes up to 2^1000, and values just either side of rounding ties.
    let state = 0x2545f491n;
    const next = () => (state = (state * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n);
    for (let k = 0; k < 200; k++) {
      const bits = Number(next() % 1000n) + 1;
      let v = 0n;
      for (let b = 0; b < bits; b += 64) v = (v << 64n) | next();
      v >>= BigInt(Math.max(0, Math.ceil(bits / 64) * 64 - bits));
      values.push(k % 2 ? -v : v, (1n << BigInt(bits)) + (1n << BigInt(Math.max(0, bits - 53))) + BigInt(k % 3) - 1n);
    }
    const got = new Series("x", values, "float64").toArray();
    expect(got).toEqual(values.map((v) => Number(v)));
    expect(new Series("x", [2n ** 80n + 1n], "float32").toArray()).toEqual([Math.fround(Number(2n ** 80n))]);
    expect(() => new Series("x", [2n ** 1100n], "float64")).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => new Series("x", [2n ** 200n], "float32")).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
  });

  it("a Date outside timestamp[ns]'s range (about ±292 years around 1970) is a typed error; inside it, and in the other units, exact", () => {
    const far = new Date(Date.UTC(2400, 0, 1));
    expect(() => new Series("t", [far], "timestamp[ns]")).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    // Every valid Date (±8.64e15 ms) fits in microseconds.
    expect(new Series("t", [new Date(-8.64e15)], "timestamp[us]").toArray()).toEqual([new Date(-8.64e15)]);
    expect(new Series("t", [far], "timestamp[us]").toArray()).toEqual([far]);
    const near = new Date(Date.UTC(2200, 0, 1, 12, 30, 0, 7));
    expect(new Series("t", [near], "timestamp[ns]").toArray()).toEqual([near]);
    expect(new Series("t", [new Date(-8.64e15)], "timestamp[ms]").toArray()).toEqual([new Date(-8.64e15)]);
  });
});

describe("work whose result cannot fit fails early", () => {
  it("a join whose output would not fit in memory is ERR_OUT_OF_MEMORY naming the bytes, not minutes of counting", { timeout: 120_000 }, () => {
    // 1e5 rows of one key joined with themselves: 1e10 output rows, 160 GB of row maps.
    const n = 100_000;
    const df = new DataFrame({ k: new Int32Array(n), v: Float64Array.from({ length: n }, (_, i) => i) });
    let err: unknown;
    try {
      df.join(df, { on: "k" });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: "ERR_OUT_OF_MEMORY" });
    expect((err as { requestedBytes: number }).requestedBytes).toBeGreaterThan(totalmem() * 0.99);
    // The inputs are intact and still join where the output fits.
    expect(df.height).toBe(n);
    const few = df.slice(0, 300);
    const j = few.join(few, { on: "k" });
    expect(j.height).toBe(90_000);
    j.dispose();
  });
});

describe("errors are GpudfErrors with a code", () => {
  it("a bigint (or other non-string) where a dtype belongs is ERR_DTYPE", () => {
    for (const bad of [5n, 5, {}, Symbol("x")]) {
      expect(() => new Series("x", [1], bad as never)).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    }
  });

  it("an expression nested deeper than an expression may have nodes is ERR_INVALID_ARGUMENT when built, not a stack overflow", () => {
    let e = col("a");
    let err: unknown;
    try {
      for (let i = 0; i < 20_000; i++) e = e.add(1);
    } catch (x) {
      err = x;
    }
    expect(err).toBeInstanceOf(InvalidArgumentError);
    // 128 levels (255 nodes: the column and 127 literal additions) build and run.
    let ok = col("a");
    for (let i = 0; i < 127; i++) ok = ok.add(1);
    expect(new DataFrame({ a: [1, 2] }).select(ok.alias("b")).getColumn("b").toArray()).toEqual([128, 129]);
  });

  it("an array-like longer than a JS array can be is ERR_INVALID_ARGUMENT", () => {
    expect(() => new DataFrame({ a: { length: 2 ** 32 } as never })).toThrow(InvalidArgumentError);
    expect(() => new Series("a", { length: -1 } as never)).toThrow(InvalidArgumentError);
  });

  it("readCSV of an empty path is ERR_IO; a file whose size reads as 0 (/proc) is read to its end", async () => {
    await expect(readCSV("")).rejects.toMatchObject({ code: "ERR_IO" });
    expect(() => readCSVSync("")).toThrow(expect.objectContaining({ code: "ERR_IO" }));
    // /proc/self/mountinfo: lines of space-separated fields; the file's size reads as 0.
    const proc = "/proc/self/mountinfo";
    let lines: number;
    try {
      expect(statSync(proc).size).toBe(0);
      lines = readFileSync(proc, "utf8").trim().split("\n").length;
    } catch {
      return; // no /proc here
    }
    const df = await readCSV(proc, { sep: " ", hasHeader: false, inferSchemaLength: 0 });
    expect(df.height).toBeGreaterThan(0);
    expect(Math.abs(df.height - lines)).toBeLessThanOrEqual(2); // mounts may change between the reads
  });
});

describe("strings back to JS", () => {
  it("toArray gives every string exactly: ASCII, Latin-1 range, multi-byte and astral, across 4096-row scopes", () => {
    const pool = ["plain", "", "café", "ÿ", "日本語", "😀 emoji", "a\u0000b", "x".repeat(40), "é".repeat(9)];
    const values = Array.from({ length: 10_007 }, (_, i) => (i % 11 === 5 ? null : `${pool[i % pool.length]}${i % 3 === 0 ? "" : i}`));
    expect(new Series("s", values).toArray()).toEqual(values);
    expect(new DataFrame({ s: values }).toRecords().map((r) => r.s)).toEqual(values);
  });
});

describe("int64 keys spanning the whole range (found by the API fuzzer)", () => {
  const MAX = 2n ** 63n - 1n;
  const MIN = -(2n ** 63n);
  it("a join on keys from INT64_MIN to INT64_MAX matches exactly (the key span wrapped to 0 and corrupted the heap)", () => {
    const df = new DataFrame({ c: [MAX, MIN, 1n, null, MAX] });
    const j = df.join(df, { on: "c", how: "inner" });
    const keys = j.getColumn("c").toArray() as (bigint | null)[];
    expect(keys.sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0))).toEqual([MIN, 1n, MAX, MAX, MAX, MAX]);
    j.dispose();
    df.dispose();
  });

  it("a two-key groupBy with a full-range int64 key keeps its groups apart", () => {
    const df = new DataFrame({ a: [MAX, MIN, MAX, 0n], b: [1n, 1n, 1n, 2n], v: [1, 2, 3, 4] });
    const g = df.groupBy("a", "b").agg(col("v").sum().alias("s")).sort("a");
    expect(g.toRecords()).toEqual([
      { a: MIN, b: 1n, s: 2 },
      { a: 0n, b: 2n, s: 4 },
      { a: MAX, b: 1n, s: 4 },
    ]);
  });
});
