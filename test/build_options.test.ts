/**
 * Build options read from the environment when the addon is built (`npm ci`, `npm install`):
 * GPUDF_CUDA_ARCHITECTURES narrows the GPU generations nvcc compiles for. Checked by configuring
 * the project with CMake into a temporary folder (no compile) and reading the code generation
 * flags the generated build passes to nvcc. GPUDF_UNITY_BUILD=OFF compiles each C++ file alone.
 * Needs nvcc; CI has it.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const hasNvcc = spawnSync("nvcc", ["--version"]).status === 0;

/** The build.ninja of a CUDA-enabled configure with `env` added. */
function configure(env: NodeJS.ProcessEnv): string {
  const dir = mkdtempSync(join(tmpdir(), "gpudf-configure-"));
  try {
    const r = spawnSync("cmake", ["-S", root, "-B", dir, "-G", "Ninja", "-DGPUDF_CUDA=ON", "-DCMAKE_BUILD_TYPE=Release"], {
      encoding: "utf8",
      env: { ...process.env, GPUDF_CUDA_ARCHITECTURES: "", GPUDF_UNITY_BUILD: "", ...env },
      timeout: 300_000,
    });
    if (r.status !== 0) throw new Error(`cmake failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
    return readFileSync(join(dir, "build.ninja"), "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The distinct `--generate-code` flags of a CUDA-enabled configure with `env` added. */
function codegen(env: NodeJS.ProcessEnv): string[] {
  return [...new Set(configure(env).match(/--generate-code=\S+/g) ?? [])].sort();
}

/** The object files the core library is built from. */
function coreObjects(ninja: string): string[] {
  return [...ninja.matchAll(/^build (CMakeFiles\/gpudf_core\.dir\/\S+\.o):/gm)].map((m) => m[1]!);
}

describe.skipIf(!hasNvcc)("CMake build options", () => {
  it("builds for sm_80, sm_90 and PTX by default", () => {
    expect(codegen({})).toEqual([
      "--generate-code=arch=compute_80,code=[sm_80]",
      "--generate-code=arch=compute_90,code=[compute_90]",
      "--generate-code=arch=compute_90,code=[sm_90]",
    ]);
  }, 300_000);

  it("GPUDF_CUDA_ARCHITECTURES picks the architectures", () => {
    expect(codegen({ GPUDF_CUDA_ARCHITECTURES: "90-real" })).toEqual(["--generate-code=arch=compute_90,code=[sm_90]"]);
  }, 300_000);

  it("compiles the C++ sources in unity batches and each .cu file alone; GPUDF_UNITY_BUILD=OFF one file per unit", () => {
    const unity = coreObjects(configure({}));
    const batches = unity.filter((o) => o.includes("/Unity/unity_"));
    const cpp = unity.filter((o) => o.endsWith(".cpp.o"));
    const cu = unity.filter((o) => o.endsWith(".cu.o"));
    expect(batches.length).toBeGreaterThan(5);
    expect(cpp).toEqual([]);
    expect(cu).toContain("CMakeFiles/gpudf_core.dir/native/ops/sort/sort.cu.o");

    const single = coreObjects(configure({ GPUDF_UNITY_BUILD: "OFF" }));
    expect(single.filter((o) => o.includes("/Unity/"))).toEqual([]);
    expect(single).toContain("CMakeFiles/gpudf_core.dir/native/ops/sort/sort.cpp.o");
    expect(single.filter((o) => o.endsWith(".cu.o")).sort()).toEqual([...cu].sort());
    // Each batch holds at most GPUDF_UNITY_BATCH (8) files.
    expect(batches.length).toBeGreaterThanOrEqual(Math.ceil(single.filter((o) => o.endsWith(".cpp.o")).length / 8));
  }, 300_000);
});
