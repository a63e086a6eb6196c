/**
 * Device selection and memory statistics. The device is chosen once, at first use, from
 * GPUDF_DEVICE (auto | cpu | cuda; default auto).
 */
import { GpudfError } from "./errors.js";
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
