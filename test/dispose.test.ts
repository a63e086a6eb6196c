import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { DataFrame, DisposedError, GpudfError, Series, fromArrow } from "../src/index.js";
import { ALL_DTYPES, activeMemory, diffValues, makeArrowTable, rawColumn, rawValues } from "./helpers.js";

const N = 1_000_000;
const BYTES = 8 * N;

/** A JS number array of N floats (built before any measurement so that it is not counted). */
function bigValues(): number[] {
  return Array.from({ length: N }, (_, i) => i * 0.5 - 1000);
}

function expectDisposedError(fn: () => unknown, what: string): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, `${what} should throw`).toBeInstanceOf(DisposedError);
  expect(err, what).toBeInstanceOf(GpudfError);
  expect((err as GpudfError).code, what).toBe("ERR_DISPOSED");
}

describe("memory accounting", () => {
  it(`a ${N}-row float64 frame adds at least ${BYTES} live bytes; dispose gives them back`, () => {
    const vals = bigValues();
    const before = activeMemory().liveBytes;
    const df = new DataFrame({ x: vals });
    const mid = activeMemory();
    expect(mid.liveBytes - before).toBeGreaterThanOrEqual(BYTES);
    expect(mid.peakBytes).toBeGreaterThanOrEqual(mid.liveBytes);
    df.dispose();
    expect(df.disposed).toBe(true);
    expect(activeMemory().liveBytes).toBeLessThanOrEqual(before);
  });

  it("derived frames share the data; memory returns once every frame is disposed", () => {
    const vals = bigValues();
    const before = activeMemory().liveBytes;
    const df = new DataFrame({ x: vals });
    const derived = [df.select("x"), df.slice(3, 500_000), df.head(10), df.tail(10), df.rename({ x: "y" })];
    expect(activeMemory().liveBytes - before).toBeGreaterThanOrEqual(BYTES);
    df.dispose();
    for (const d of derived) expect(d.disposed).toBe(false);
    // The derived frames still read the right values (Series from getColumn share the data too,
    // so they are disposed as well before memory is checked).
    const sx = derived[1]!.getColumn("x");
    expect(sx.toArray().slice(0, 3)).toEqual([3 * 0.5 - 1000, 4 * 0.5 - 1000, 5 * 0.5 - 1000]);
    sx.dispose();
    const sy = derived[4]!.getColumn("y");
    expect(sy.length).toBe(N);
    sy.dispose();
    for (const d of derived) d.dispose();
    expect(activeMemory().liveBytes).toBeLessThanOrEqual(before);
  });

  it("slice is O(1): it shares buffers instead of copying them", () => {
    const vals = bigValues();
    const df = new DataFrame({ x: vals });
    const before = activeMemory().liveBytes;
    const s = df.slice(3, N - 10);
    const grown = activeMemory().liveBytes - before;
    expect(grown).toBeLessThan(BYTES / 10);
    expect(s.height).toBe(N - 10);
    s.dispose();
    df.dispose();
  });

  it("a Series owns its buffer: creating and disposing it moves liveBytes", () => {
    const vals = bigValues();
    const before = activeMemory().liveBytes;
    const s = new Series("x", vals);
    expect(activeMemory().liveBytes - before).toBeGreaterThanOrEqual(BYTES);
    s.dispose();
    expect(s.disposed).toBe(true);
    expect(activeMemory().liveBytes).toBeLessThanOrEqual(before);
  });

  it("frames from arrow are released too", () => {
    const t = makeArrowTable(N, "some", ["float64", "int64"]);
    const before = activeMemory().liveBytes;
    const df = fromArrow(t);
    const s = df.getColumn("int64");
    df.dispose();
    expect(s.toArray()[0]).toBe(-(2n ** 63n));
    s.dispose();
    expect(activeMemory().liveBytes).toBeLessThanOrEqual(before);
  });
});

describe("dispose", () => {
  it("is idempotent", () => {
    const vals = bigValues();
    const before = activeMemory().liveBytes;
    const df = new DataFrame({ x: vals });
    df.dispose();
    const after = activeMemory().liveBytes;
    expect(() => df.dispose()).not.toThrow();
    expect(() => df[Symbol.dispose]()).not.toThrow();
    expect(df.disposed).toBe(true);
    expect(activeMemory().liveBytes).toBe(after);
    expect(after).toBeLessThanOrEqual(before);
    const s = new Series("x", [1, 2]);
    s.dispose();
    expect(() => s.dispose()).not.toThrow();
    expect(s.disposed).toBe(true);
  });

  it("disposed is false before dispose", () => {
    const df = new DataFrame({ a: [1] });
    expect(df.disposed).toBe(false);
    const s = new Series("a", [1]);
    expect(s.disposed).toBe(false);
    df.dispose();
    s.dispose();
  });

  it("every method and getter of a disposed frame throws DisposedError", () => {
    const df = new DataFrame({ a: [1, 2, 3], s: ["x", "y", "z"] });
    const other = new Series("b", [1, 2, 3]);
    df.dispose();
    const uses: [string, () => unknown][] = [
      ["shape", () => df.shape],
      ["height", () => df.height],
      ["width", () => df.width],
      ["columns", () => df.columns],
      ["dtypes", () => df.dtypes],
      ["schema", () => df.schema],
      ["select", () => df.select("a")],
      ["drop", () => df.drop("a")],
      ["rename", () => df.rename({ a: "b" })],
      ["getColumn", () => df.getColumn("a")],
      ["withColumn", () => df.withColumn(other)],
      ["head", () => df.head()],
      ["tail", () => df.tail(1)],
      ["slice", () => df.slice(1)],
      ["toArrow", () => df.toArrow()],
      ["toRecords", () => df.toRecords()],
      ["toString", () => df.toString()],
    ];
    for (const [what, fn] of uses) expectDisposedError(fn, what);
    expect(df.disposed).toBe(true);
    other.dispose();
  });

  it("every method and getter of a disposed Series throws DisposedError", () => {
    const s = new Series("x", [1, 2, null]);
    s.dispose();
    const uses: [string, () => unknown][] = [
      ["dtype", () => s.dtype],
      ["length", () => s.length],
      ["nullCount", () => s.nullCount],
      ["toArray", () => s.toArray()],
      ["toArrow", () => s.toArrow()],
      ["rename", () => s.rename("y")],
      ["slice", () => s.slice(1)],
      ["head", () => s.head()],
      ["tail", () => s.tail()],
      ["toString", () => s.toString()],
    ];
    for (const [what, fn] of uses) expectDisposedError(fn, what);
  });

  it("a disposed Series cannot be used to build frames", () => {
    const s = new Series("x", [1, 2]);
    s.dispose();
    expectDisposedError(() => new DataFrame({ x: s }), "new DataFrame with a disposed Series");
    const df = new DataFrame({ a: [1, 2] });
    expectDisposedError(() => df.withColumn(s), "withColumn with a disposed Series");
    expect(df.getColumn("a").toArray()).toEqual([1, 2]);
    df.dispose();
  });

  it("df[Symbol.dispose]() disposes (using-style) and frees memory", () => {
    const vals = bigValues();
    const before = activeMemory().liveBytes;
    const df = new DataFrame({ x: vals });
    expect(typeof df[Symbol.dispose]).toBe("function");
    df[Symbol.dispose]();
    expect(df.disposed).toBe(true);
    expectDisposedError(() => df.shape, "shape after Symbol.dispose");
    expect(activeMemory().liveBytes).toBeLessThanOrEqual(before);
    const s = new Series("s", ["a"]);
    s[Symbol.dispose]();
    expect(s.disposed).toBe(true);
  });

  it("a Series from getColumn stays valid after its frame is disposed", () => {
    const df = new DataFrame({ a: [1.5, null, NaN], s: ["héllo", "🦀", null] });
    const a = df.getColumn("a");
    const s = df.getColumn("s");
    df.dispose();
    expect(a.disposed).toBe(false);
    expect(diffValues(a.toArray(), [1.5, null, NaN])).toBeNull();
    expect(s.toArray()).toEqual(["héllo", "🦀", null]);
    expect(s.slice(1).toArray()).toEqual(["🦀", null]);
    expect(s.nullCount).toBe(1);
    a.dispose();
    s.dispose();
  });

  it("disposing a Series from getColumn leaves its frame intact", () => {
    const df = new DataFrame({ a: [1, 2, 3] });
    df.getColumn("a").dispose();
    expect(df.getColumn("a").toArray()).toEqual([1, 2, 3]);
    df.dispose();
  });

  it("a slice of a frame keeps the data alive after the parent is disposed", () => {
    const vals = bigValues();
    const before = activeMemory().liveBytes;
    const df = new DataFrame({ x: vals, s: vals.map((v, i) => (i % 2 === 0 ? `r${i}` : null)) });
    const sl = df.slice(10, 5);
    df.dispose();
    expect(sl.shape).toEqual([5, 2]);
    expect(sl.toRecords()).toEqual([
      { x: vals[10], s: "r10" },
      { x: vals[11], s: null },
      { x: vals[12], s: "r12" },
      { x: vals[13], s: null },
      { x: vals[14], s: "r14" },
    ]);
    // Still held by the slice.
    expect(activeMemory().liveBytes - before).toBeGreaterThanOrEqual(BYTES);
    sl.dispose();
    expect(activeMemory().liveBytes).toBeLessThanOrEqual(before);
  });

  it("withColumn results keep their columns after the inputs are disposed", () => {
    const df = new DataFrame({ a: [1, 2, 3] });
    const s = new Series("b", ["x", "y", "z"]);
    const out = df.withColumn(s);
    df.dispose();
    s.dispose();
    expect(out.toRecords()).toEqual([
      { a: 1, b: "x" },
      { a: 2, b: "y" },
      { a: 3, b: "z" },
    ]);
    out.dispose();
  });

  it("a frame built from Series keeps working after the Series are disposed", () => {
    const s = new Series("x", [1n, 2n]);
    const df = new DataFrame({ x: s });
    s.dispose();
    expect(df.getColumn("x").toArray()).toEqual([1n, 2n]);
    df.dispose();
  });
});

describe("results outlive the frames they came from", () => {
  it("a Table from toArrow and a Vector from Series.toArrow stay valid after dispose", () => {
    const df = fromArrow(makeArrowTable(100, "some"));
    const t = df.toArrow();
    const s = df.getColumn("utf8");
    const v = s.toArrow();
    df.dispose();
    s.dispose();
    // Churn the allocator so that freed native memory would be reused.
    for (let k = 0; k < 20; k++) new DataFrame({ x: Array.from({ length: 100_000 }, (_, i) => i + k) }).dispose();
    for (const dt of ALL_DTYPES) {
      expect(diffValues(rawValues(t.getChild(dt)!), rawColumn(dt, 100, "some")), dt).toBeNull();
    }
    expect(diffValues(rawValues(v), rawColumn("utf8", 100, "some"))).toBeNull();
  });

  it("a frame from fromArrow stays valid after the arrow Table is garbage collected", { timeout: 120_000 }, () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), "gpudf-gc-test-"));
    try {
      const file = join(dir, "gc.mts");
      writeFileSync(
        file,
        `const g = await import(${JSON.stringify(pathToFileURL(join(root, "src", "index.ts")).href)});
const H = await import(${JSON.stringify(pathToFileURL(join(root, "test", "helpers.ts")).href)});
const gc = (globalThis as any).gc as () => void;
function make() { return g.fromArrow(H.makeArrowTable(10_000, "some")); }
const df = make();
gc(); gc();
const junk: Float64Array[] = [];
for (let k = 0; k < 100; k++) junk.push(new Float64Array(100_000).fill(k));
await new Promise((r) => setTimeout(r, 20));
gc();
const out = df.toArrow();
const bad: string[] = [];
for (const dt of H.ALL_DTYPES) {
  const d = H.diffValues(H.rawValues(out.getChild(dt)), H.rawColumn(dt, 10_000, "some"));
  if (d) bad.push(dt + ": " + d);
}
process.stdout.write("@@JSON@@" + JSON.stringify({ bad, junk: junk.length }) + "\\n");
`,
      );
      const r = spawnSync(process.execPath, [join(root, "node_modules", "tsx", "dist", "cli.mjs"), file], {
        cwd: root,
        env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --expose-gc`.trim() },
        encoding: "utf8",
        timeout: 110_000,
      });
      const info = `status=${r.status} signal=${r.signal}\n${r.stdout}\n${r.stderr}`;
      expect(r.status, info).toBe(0);
      const line = r.stdout.split("\n").find((l) => l.startsWith("@@JSON@@"));
      expect(line, info).toBeDefined();
      expect(JSON.parse(line!.slice(8)).bad).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
