/**
 * Fuzz targets. Each case builds its input from a seeded Rng and calls the public API (or the
 * native expression decoder) with it; it returns normally when the call succeeded or failed with
 * a GpudfError, and throws a FuzzFailure for anything the promise rules out (an error that is not
 * a GpudfError, a loaded frame changed by a failed call).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { col, DataFrame, GpudfError, lit, readCSVSync, readIPCSync, readJSONSync, readNDJSONSync, readParquet } from "../../src/index.js";
import { toIPCBytes } from "../../src/io/ipc.js";
import { columnFromValues } from "../../src/columns.js";
import { native } from "../../src/native/addon.js";
import { ensureDevice } from "../../src/device.js";
import { mutateBytes, type Rng } from "./rng.js";

export class FuzzFailure extends Error {}

/** GPUDF_FUZZ_TRACE=1: each API call is written to stderr before it runs. */
const TRACE = process.env["GPUDF_FUZZ_TRACE"] === "1";

/** Rethrows unless `err` is a GpudfError. */
function expectTyped(err: unknown, what: string): void {
  if (err instanceof GpudfError) return;
  const e = err as Error;
  throw new FuzzFailure(`${what}: ${e?.constructor?.name ?? typeof err}: ${String(e?.message ?? err).slice(0, 300)}`);
}

const dir = mkdtempSync(join(tmpdir(), "gpudf-fuzz-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

// --- random frames -------------------------------------------------------------------------

const STRINGS = ["", "a", "b", "ab", "é", "x,y", '"q"', "line\nbreak", "  ", "NaN", "null"];

/** A frame of 0–40 rows over int64, float64, string and bool columns, each with nulls. */
export function randomFrame(rng: Rng, names: readonly string[] = ["a", "b", "c", "d"]): DataFrame {
  const rows = rng.chance(0.1) ? 0 : 1 + rng.int(40);
  const cols: Record<string, unknown[]> = {};
  for (const name of names.slice(0, 1 + rng.int(names.length))) {
    const kind = rng.int(4);
    const nullRate = rng.pick([0, 0.1, 0.5, 1]);
    cols[name] = Array.from({ length: rows }, () => {
      if (rng.chance(nullRate)) return null;
      if (kind === 0) return rng.chance(0.05) ? rng.pick([2n ** 63n - 1n, -(2n ** 63n)]) : BigInt(rng.int(7) - 3);
      if (kind === 1) return rng.pick([0, -0, 1.5, -2, 1e300, NaN, Infinity, rng.int(5)]);
      if (kind === 2) return rng.pick(STRINGS);
      return rng.chance(0.5);
    });
  }
  return new DataFrame(cols as never);
}

function snapshot(df: DataFrame): string {
  return JSON.stringify({ c: df.columns, d: df.dtypes.map(String), r: df.toRecords() }, (_k, v) =>
    typeof v === "bigint" ? `${v}n` : typeof v === "number" && !Number.isFinite(v) ? String(v) : Object.is(v, -0) ? "-0" : v,
  );
}

// --- API chains ----------------------------------------------------------------------------

const NAMES = ["a", "b", "c", "d", "zz"];
const AGGS = ["sum", "mean", "min", "max", "count", "first", "last", "nUnique", "std"] as const;

function randomExpr(rng: Rng, depth = 0): ReturnType<typeof col> {
  if (depth > 3 || rng.chance(0.3)) return rng.chance(0.7) ? col(rng.pick(NAMES)) : lit(rng.pick([1, 0, -1.5, "a", true, null, 3n] as never[]));
  const a = randomExpr(rng, depth + 1);
  const b = randomExpr(rng, depth + 1);
  const ops: (() => ReturnType<typeof col>)[] = [
    () => a.add(b), () => a.sub(b), () => a.mul(b), () => a.div(b), () => a.eq(b), () => a.lt(b),
    () => a.and(b), () => a.or(b), () => a.isNull(), () => a.not(), () => a.cast(rng.pick(["int64", "float64", "string", "bool", "int32"] as never[])),
    () => a.fillNull(b), () => (a as unknown as Record<string, () => ReturnType<typeof col>>)[rng.pick(AGGS)]!(),
  ];
  return rng.pick(ops)();
}

/** One call of a random verb on a random live frame. */
function randomCall(rng: Rng, frames: DataFrame[]): DataFrame | unknown {
  const df = rng.pick(frames);
  const name = rng.pick(NAMES);
  const verb = rng.int(14);
  if (TRACE) process.stderr.write(`frame ${frames.indexOf(df)} ${df.columns}/${df.dtypes.map(String)} h=${df.height} verb ${verb} name ${name}\n`);
  switch (verb) {
    case 0: return df.filter(randomExpr(rng));
    case 1: return df.select(randomExpr(rng).alias("x"), col(name));
    case 2: return df.withColumns(randomExpr(rng).alias(rng.pick(NAMES)));
    case 3: return df.sort(rng.chance(0.7) ? name : [name, rng.pick(NAMES)], { descending: rng.chance(0.5) } as never);
    case 4: return df.groupBy(name).agg((col(rng.pick(NAMES)) as unknown as Record<string, () => ReturnType<typeof col>>)[rng.pick(AGGS)]!().alias("g"));
    case 5: {
      const other = rng.pick(frames);
      const how = rng.pick(["inner", "left", "outer", "semi", "anti", "cross"]);
      if (TRACE) process.stderr.write(`  join with frame ${frames.indexOf(other)} ${other.columns}/${other.dtypes.map(String)} h=${other.height} how ${how}\n${JSON.stringify([df.toRecords(), other.toRecords()], (_k, v) => (typeof v === "bigint" ? `${v}n` : v))}\n`);
      return df.join(other, { on: name, how } as never);
    }
    case 6: return df.slice(rng.int(50) - 10, rng.int(50) - 5);
    case 7: return df.unique();
    case 8: return df.dropNulls();
    case 9: return df.fillNull(rng.pick([0, "z", true, null, 1n] as never[]));
    case 10: return df.getColumn(name).sum();
    case 11: return df.take(Array.from({ length: rng.int(6) }, () => rng.int(60) - 10));
    case 12: return df.topK(rng.int(5) - 1, name as never);
    default: return df.describe();
  }
}

/** A chain of 8 calls over random frames; every failed call must leave every frame as it was. */
export function apiChain(rng: Rng): void {
  const frames = [randomFrame(rng), randomFrame(rng)];
  const before = frames.map(snapshot);
  for (let step = 0; step < 8; step++) {
    let out: unknown;
    try {
      out = randomCall(rng, frames);
    } catch (err) {
      expectTyped(err, `api step ${step}`);
      frames.forEach((f, i) => {
        if (snapshot(f) !== before[i]) throw new FuzzFailure(`api step ${step}: a failed call changed frame ${i}`);
      });
      continue;
    }
    if (out instanceof DataFrame) {
      if (frames.length < 6) {
        frames.push(out);
        before.push(snapshot(out));
      } else out.dispose();
    }
  }
  for (const f of frames) f.dispose();
}

// --- file readers --------------------------------------------------------------------------

let seeds: { csv: Uint8Array; ipcFile: Uint8Array; ipcStream: Uint8Array; parquet: Uint8Array } | undefined;

async function seedFiles(): Promise<NonNullable<typeof seeds>> {
  if (seeds) return seeds;
  const df = new DataFrame({
    i: [1n, null, -3n, 4n],
    f: [1.5, 2, null, -0],
    s: ["x", "", null, "zz"],
    b: [true, null, false, true],
  });
  const parquetPath = join(dir, "seed.parquet");
  await df.writeParquet(parquetPath);
  const { readFileSync } = await import("node:fs");
  seeds = {
    csv: Buffer.from('k,v,s\n1,2.5,"a,b"\n2,,x\n-3,1e9,"q""q"\n'),
    ipcFile: toIPCBytes(df, { format: "file" }),
    ipcStream: toIPCBytes(df, { format: "stream" }),
    parquet: readFileSync(parquetPath),
  };
  df.dispose();
  return seeds;
}

export async function csvMutation(rng: Rng): Promise<void> {
  const bytes = mutateBytes(rng, (await seedFiles()).csv);
  try {
    readCSVSync(bytes).dispose();
  } catch (err) {
    expectTyped(err, "readCSVSync of mutated bytes");
  }
}

export async function ipcMutation(rng: Rng): Promise<void> {
  const s = await seedFiles();
  const path = join(dir, "case.arrow");
  writeFileSync(path, mutateBytes(rng, rng.chance(0.5) ? s.ipcFile : s.ipcStream));
  try {
    readIPCSync(path).dispose();
  } catch (err) {
    expectTyped(err, "readIPCSync of a mutated file");
  }
}

export async function parquetMutation(rng: Rng): Promise<void> {
  const path = join(dir, "case.parquet");
  writeFileSync(path, mutateBytes(rng, (await seedFiles()).parquet));
  try {
    (await readParquet(path)).dispose();
  } catch (err) {
    expectTyped(err, "readParquet of a mutated file");
  }
}

const JSON_SEEDS = [
  Buffer.from('{"i":1,"f":2.5,"s":"a\\u00e9\\ud83d\\ude00","b":true,"n":null}\n\n{"i":-3,"f":1e9,"s":"q\\"q","o":{"x":[1,2]}}\n{}\n'),
  Buffer.from('[{"i":1,"s":"x\\n"},{"i":2.5,"t":"2024-01-02T03:04:05"},{"l":[{"y":null}]}]'),
];

export function jsonMutation(rng: Rng): void {
  const array = rng.chance(0.5);
  const bytes = mutateBytes(rng, JSON_SEEDS[array ? 1 : 0] as Uint8Array);
  const options = rng.pick([{}, { columns: ["i", "s"] }, { dtypes: { t: "timestamp[us]" } }, { schema: { i: "int32", s: "utf8" } }, { nRows: 1 }] as const);
  try {
    (array ? readJSONSync(bytes, options) : readNDJSONSync(bytes, options)).dispose();
  } catch (err) {
    expectTyped(err, `${array ? "readJSONSync" : "readNDJSONSync"} of mutated bytes`);
  }
}

// --- the native expression decoder ---------------------------------------------------------

const OPS = ["col", "lit", "add", "sub", "mul", "div", "eq", "lt", "and", "or", "not", "is_null", "cast", "agg", "alias",
  "fill_null", "when", "str_len", "abs", "neg", "bogus", ""];

/** A random serialised tree (the flat post-order list the addon takes), often malformed. */
export function exprDecoder(rng: Rng): void {
  ensureDevice();
  const n = 1 + rng.int(12);
  const nodes: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const node: Record<string, unknown> = { op: rng.pick(OPS), args: Array.from({ length: rng.int(4) }, () => (rng.chance(0.9) ? rng.int(i + 1) : rng.int(40) - 20)) };
    if (rng.chance(0.5)) node.name = rng.pick(["a", "b", "zz", "", 7]);
    if (rng.chance(0.5)) node.value = rng.pick([1, -0, 1e308, "s", true, null, 2n ** 70n, NaN]);
    if (rng.chance(0.4)) node.dtype = rng.pick([0, 1, 5, 9, 12, 13, -1, 1000, "int64"]);
    if (rng.chance(0.2)) node.params = [rng.int(5), rng.pick([0, -1, 1e9, 0.5])];
    if (rng.chance(0.2)) node.list = [1, "x", null];
    if (rng.chance(0.3)) node.agg = { kind: rng.pick(["sum", "mean", "quantile", "x"]), ddof: rng.int(3), q: rng.pick([0.5, 2, NaN]) };
    nodes.push(node);
  }
  const rows = rng.int(6);
  const handles = [
    columnFromValues(Array.from({ length: rows }, (_, i) => (i % 3 === 0 ? null : i * 1.5))),
    columnFromValues(Array.from({ length: rows }, (_, i) => (i % 2 === 0 ? null : `s${i}`))),
  ];
  try {
    native.evalExpr(nodes as never, ["a", "b"], handles, rows).dispose();
  } catch (err) {
    expectTyped(err, "evalExpr of a random tree");
  } finally {
    for (const h of handles) h.dispose();
  }
}

export const TARGETS: Record<string, (rng: Rng) => void | Promise<void>> = {
  api: apiChain,
  csv: csvMutation,
  json: jsonMutation,
  ipc: ipcMutation,
  parquet: parquetMutation,
  expr: exprDecoder,
};
