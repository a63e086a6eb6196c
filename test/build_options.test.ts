/**
 * Build options read from the environment when the addon is built (`npm ci`, `npm install`):
 * GPUDF_CUDA_ARCHITECTURES narrows the GPU generations nvcc compiles for. Checked by configuring
 * the project with CMake into a temporary folder (no compile) and reading the code generation
 * flags the generated build passes to nvcc. Needs nvcc; CI has it.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const hasNvcc = spawnSync("nvcc", ["--version"]).status === 0;

/** The distinct `--generate-code` flags of a CUDA-enabled configure with `env` added. */
function codegen(env: NodeJS.ProcessEnv): string[] {
  const dir = mkdtempSync(join(tmpdir(), "gpudf-configure-"));
  try {
    const r = spawnSync("cmake", ["-S", root, "-B", dir, "-G", "Ninja", "-DGPUDF_CUDA=ON", "-DCMAKE_BUILD_TYPE=Release"], {
      encoding: "utf8",
      env: { ...process.env, GPUDF_CUDA_ARCHITECTURES: "", ...env },
      timeout: 300_000,
    });
    if (r.status !== 0) throw new Error(`cmake failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
    const ninja = readFileSync(join(dir, "build.ninja"), "utf8");
    return [...new Set(ninja.match(/--generate-code=\S+/g) ?? [])].sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
});
