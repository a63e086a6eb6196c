/**
 * Device selection and memory statistics. The device is chosen once, at first use, from
 * GPUDF_DEVICE (auto | cpu | cuda; default auto).
 */
import { GpudfError, InvalidArgumentError } from "./errors.js";
import { native, type NativeDeviceInfo } from "./native/addon.js";

/** Which backend runs, and why. */
export interface DeviceInfo {
  name: "cpu" | "cuda";
  /** Why this device was chosen, e.g. "auto: no CUDA driver". */
  reason: string;
  /** Present when name is "cuda". */
  gpu?: { name: string; memoryBytes: number };
}

/** Live and peak bytes of native buffers on one device. */
export interface MemoryStats {
  liveBytes: number;
  peakBytes: number;
}

let selected: NativeDeviceInfo | undefined;
let selectionError: GpudfError | undefined;

/** Selects the device on first call; rethrows the same typed error on every call if it failed. */
export function ensureDevice(): NativeDeviceInfo {
  if (selected) return selected;
  if (selectionError) throw selectionError;
  try {
    selected = native.selectDevice(process.env["GPUDF_DEVICE"] ?? "auto");
    const limit = process.env["GPUDF_MEMORY_LIMIT"];
    if (limit !== undefined && limit !== "") {
      const bytes = parseByteSize(limit, "GPUDF_MEMORY_LIMIT");
      native.setMemoryLimit("cpu", bytes);
      native.setMemoryLimit("cuda", bytes);
    }
    return selected;
  } catch (err) {
    if (err instanceof GpudfError) selectionError = err;
    throw err;
  }
}

/**
 * The device gpudf runs on, and why it was chosen.
 * Throws DeviceUnavailableError when GPUDF_DEVICE=cuda cannot run here.
 *
 * @example
 * import { device } from "gpudf";
 * console.log(device()); // { name: "cpu", reason: "auto: no CUDA driver" }
 */
export function device(): DeviceInfo {
  const d = ensureDevice();
  const info: DeviceInfo = { name: d.name, reason: d.reason };
  if (d.gpu) info.gpu = { name: d.gpu.name, memoryBytes: d.gpu.memoryBytes };
  return info;
}

/**
 * Bytes of native buffers alive now, per device (`cuda` only when the CUDA backend is active).
 *
 * @example
 * import { memory } from "gpudf";
 * console.log(memory().cpu.liveBytes);
 */
export function memory(): { cpu: MemoryStats; cuda?: MemoryStats } {
  // The device is chosen first: asked before any data exists, memory() on a GPU box would
  // otherwise leave out the cuda entry that every later call includes.
  ensureDevice();
  const m = native.memory();
  const pick = (s: { liveBytes: number; peakBytes: number }): MemoryStats => ({
    liveBytes: s.liveBytes,
    peakBytes: s.peakBytes,
  });
  const out: { cpu: MemoryStats; cuda?: MemoryStats } = { cpu: pick(m.cpu) };
  if (m.cuda) out.cuda = pick(m.cuda);
  return out;
}

const SUFFIXES: Record<string, number> = { "": 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 };

/** "8G", "512M", "1.5G", "1000000" (binary suffixes K, M, G, T, optionally followed by B). */
export function parseByteSize(value: unknown, what: string): number {
  if (typeof value === "number" || typeof value === "bigint") {
    const n = Number(value);
    if (Number.isSafeInteger(n) && n >= 0) return n;
    throw new InvalidArgumentError(`${what} must be a non-negative integer of bytes, got ${String(value)}`);
  }
  const m = typeof value === "string" ? /^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*$/i.exec(value) : null;
  const bytes = m ? Math.floor(Number(m[1]) * SUFFIXES[m[2]!.toUpperCase()]!) : NaN;
  if (!Number.isSafeInteger(bytes)) {
    throw new InvalidArgumentError(`${what} must be bytes with an optional K/M/G/T suffix, e.g. 8G, got ${JSON.stringify(String(value))}`);
  }
  return bytes;
}

/** Limits of setMemoryLimit: bytes (a number, bigint or "8G"), null for no limit, absent to keep. */
export interface MemoryLimits {
  cpu?: number | bigint | string | null;
  cuda?: number | bigint | string | null;
}

/**
 * Caps the live bytes of native buffers per device. An allocation that would pass a limit fails
 * with OutOfMemoryError (`requestedBytes`, `limitBytes`, `device`) and leaves every loaded frame
 * intact. `null` lifts a limit. Defaults: no limit on CPU; on CUDA the device's free memory when
 * gpudf first used it. GPUDF_MEMORY_LIMIT=8G sets both at startup. Returns the limits now in
 * force (-1: none; cuda is -1 where the CUDA backend cannot run).
 *
 * @example
 * import { setMemoryLimit } from "gpudf";
 * setMemoryLimit({ cpu: "4G" });   // a query needing more fails with ERR_OUT_OF_MEMORY
 * setMemoryLimit({ cpu: null });   // no limit again
 */
export function setMemoryLimit(limits: MemoryLimits): { cpu: number; cuda: number } {
  if (limits === null || typeof limits !== "object") throw new InvalidArgumentError("setMemoryLimit expects { cpu?, cuda? }");
  for (const key of Object.keys(limits)) {
    if (key !== "cpu" && key !== "cuda") throw new InvalidArgumentError(`setMemoryLimit: unknown device ${JSON.stringify(key)}`);
  }
  ensureDevice();
  const out = { cpu: -1, cuda: -1 };
  for (const dev of ["cpu", "cuda"] as const) {
    const v = limits[dev];
    const bytes = v === undefined ? undefined : v === null ? -1 : parseByteSize(v, `setMemoryLimit's ${dev}`);
    // With bytes undefined the current limit is read back by setting it to itself.
    out[dev] = bytes === undefined ? currentLimit(dev) : native.setMemoryLimit(dev, bytes);
  }
  return out;
}

function currentLimit(dev: "cpu" | "cuda"): number {
  const m = native.memory();
  const s = dev === "cpu" ? m.cpu : m.cuda;
  return s?.limitBytes ?? -1;
}
