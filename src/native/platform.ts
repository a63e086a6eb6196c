/**
 * The prebuilt-addon package for this platform: `gpudf-<platform>-<arch>[-<libc>]` (as
 * `gpudf-linux-x64-gnu`), an optional package holding a compiled `gpudf.node`. The loader
 * (addon.ts) takes it when no source build is present, and the install step
 * (scripts/install.mjs) skips the source build when it is installed;
 * scripts/make-prebuilt.mjs makes it.
 */
export function prebuiltPackageName(): string {
  const base = `gpudf-${process.platform}-${process.arch}`;
  if (process.platform !== "linux") return base;
  // glibc reports its version in the process report; musl does not.
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return `${base}-${header?.glibcVersionRuntime ? "gnu" : "musl"}`;
}
