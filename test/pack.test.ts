/**
 * gpudf as a dependency of another project: `npm pack` makes the tarball, and a new project in
 * a temporary folder installs it with npm (and apache-arrow, its peer, in the project's own copy)
 * and runs a short script there. With the prebuilt-addon package for this platform beside it
 * (scripts/make-prebuilt.mjs; the install step builds nothing), and alone, when the install step
 * builds the addon from source (CPU backend: GPUDF_CUDA=OFF keeps it to minutes).
 * GPUDF_PACK_FULL=1 adds the long forms a release is checked with (not in `npm test`): from a
 * `git+file:` URL of a clone (npm clones it, runs `prepare` for dist/, packs and installs it),
 * with the prebuilt package and building from source, and the tarball building the CUDA backend
 * with nvcc.
 * Packages come from npm's cache where the suite's own install put them.
 */
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
let work: string;
let tarball: string;

function run(cmd: string, args: string[], options: SpawnSyncOptions & { cwd: string }) {
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout: 1_500_000, ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  return String(r.stdout);
}

/** Ten lines a user would write: build, aggregate, hand the result to their own apache-arrow. */
const SCRIPT = `import { tableFromIPC, tableToIPC } from "apache-arrow";
import { DataFrame, col } from "gpudf";

const df = new DataFrame({ city: ["NYC", "SF", "NYC"], fare: [10, 8.5, 32] });
const out = df.groupBy("city", { maintainOrder: true }).agg(col("fare").sum().alias("total"));
console.log(JSON.stringify(out.toRecords()));
const back = tableFromIPC(tableToIPC(out.toArrow()));
console.log(back.numRows, back.getChild("total").toArray().join(","));
`;
const EXPECTED = '[{"city":"NYC","total":42},{"city":"SF","total":8.5}]\n2 42,8.5\n';

/** The device() that SCRIPT's gpudf reports, printed by the installed copy. */
const DEVICE_SCRIPT = `import { device } from "gpudf"; console.log(JSON.stringify(device()));`;

/** A new project in `dir` with gpudf (and `extra` tarballs) installed by npm; runs SCRIPT there. */
function installAndRun(dir: string, tarballs: string[], env: NodeJS.ProcessEnv): { log: string; device: { name: string; reason: string } } {
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  writeFileSync(join(dir, "index.js"), SCRIPT);
  writeFileSync(join(dir, "device.js"), DEVICE_SCRIPT);
  const install = ["install", "--no-audit", "--no-fund", "--prefer-offline", "--foreground-scripts", ...tarballs, "apache-arrow@21.2.0"];
  const log = run(npm, install, { cwd: dir, env: { ...process.env, ...env } });
  const runEnv = { ...process.env, GPUDF_DEVICE: "auto", GPUDF_ADDON: "" };
  expect(run(process.execPath, ["index.js"], { cwd: dir, env: runEnv })).toBe(EXPECTED);
  const device = JSON.parse(run(process.execPath, ["device.js"], { cwd: dir, env: runEnv })) as { name: string; reason: string };
  return { log, device };
}

let prebuiltMade: { name: string; tarball: string } | undefined;
/** The prebuilt-addon package for this platform (scripts/make-prebuilt.mjs), made once. */
function prebuiltPackage(): { name: string; tarball: string } {
  prebuiltMade ??= JSON.parse(run(process.execPath, [join(root, "scripts", "make-prebuilt.mjs"), "--out", join(work, "prebuilt")], { cwd: root }).trim().split("\n").pop()!) as { name: string; tarball: string };
  return prebuiltMade;
}

/** A `git+file:` URL of a fresh clone of this checkout's committed state. */
function gitUrl(): string {
  const clone = mkdtempSync(join(work, "repo-"));
  run("git", ["clone", "-q", root, clone], { cwd: work });
  return `git+file://${clone}`;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "gpudf-pack-"));
  // npm pack runs `prepare` (the TypeScript build into dist/), as publishing would.
  const name = run(npm, ["pack", "--pack-destination", work], { cwd: root }).trim().split("\n").pop()!;
  tarball = join(work, name);
}, 300_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, 120_000);

describe("npm pack", () => {
  it("packs what an install needs and not the native tests", () => {
    const list = run("tar", ["-tzf", tarball], { cwd: work }).split("\n");
    for (const f of ["package/dist/index.js", "package/dist/index.d.ts", "package/CMakeLists.txt", "package/scripts/install.mjs", "package/native/bindings/addon.cpp"]) {
      expect(list, f).toContain(f);
    }
    expect(list.filter((f) => f.startsWith("package/native/tests/"))).toEqual([]);
    expect(list.filter((f) => f.startsWith("package/build/"))).toEqual([]);
  });

  it("installs with the prebuilt addon package and builds nothing", () => {
    const made = prebuiltPackage();
    expect(made.name).toMatch(/^gpudf-linux-x64-(gnu|musl)$/);
    const dir = mkdtempSync(join(work, "prebuilt-app-"));
    const { log } = installAndRun(dir, [tarball, made.tarball], {});
    expect(log).toContain("gpudf: using the prebuilt addon");
    expect(existsSync(join(dir, "node_modules", "gpudf", "build"))).toBe(false);
    expect(readdirSync(join(dir, "node_modules", made.name)).sort()).toEqual(["README.md", "gpudf.node", "package.json"]);
  }, 600_000);

  it("installs from the tarball alone, building the addon from source", () => {
    const dir = mkdtempSync(join(work, "source-app-"));
    const { device } = installAndRun(dir, [tarball], { GPUDF_CUDA: "OFF" });
    expect(existsSync(join(dir, "node_modules", "gpudf", "build", "Release", "gpudf.node"))).toBe(true);
    expect(device).toEqual({ name: "cpu", reason: "auto: built without CUDA" });
  }, 1_500_000);

});

// The long forms (GPUDF_PACK_FULL=1). A git+file: install makes npm install every devDependency
// into the clone to run `prepare` (minutes here, mostly the benchmark peers); the others build
// the addon from source as a user's install would.
describe.runIf(process.env["GPUDF_PACK_FULL"] === "1")("npm pack, full builds", () => {
  it("installs from a git+file: URL with the prebuilt addon: npm clones, runs prepare (dist/), packs and installs it", () => {
    const dir = mkdtempSync(join(work, "git-app-"));
    const { log } = installAndRun(dir, [gitUrl(), prebuiltPackage().tarball], {});
    expect(log).toContain("tsc -p tsconfig.build.json"); // prepare ran in the clone
    expect(log).toContain("gpudf: using the prebuilt addon");
    expect(existsSync(join(dir, "node_modules", "gpudf", "dist", "index.js"))).toBe(true);
  }, 900_000);
  it("installs from a git+file: URL alone, building the addon from source", () => {
    const dir = mkdtempSync(join(work, "git-source-app-"));
    const { log, device } = installAndRun(dir, [gitUrl()], { GPUDF_CUDA: "OFF" });
    expect(log).not.toContain("gpudf: using the prebuilt addon");
    expect(existsSync(join(dir, "node_modules", "gpudf", "build", "Release", "gpudf.node"))).toBe(true);
    expect(device).toEqual({ name: "cpu", reason: "auto: built without CUDA" });
  }, 1_500_000);

  it("installs from the tarball with nvcc on PATH, building the CUDA backend", () => {
    expect(spawnSync("nvcc", ["--version"]).status, "nvcc on PATH").toBe(0);
    const dir = mkdtempSync(join(work, "cuda-app-"));
    const { device } = installAndRun(dir, [tarball], { GPUDF_CUDA: "ON" });
    // Built with CUDA: with no GPU or driver it falls back to the CPU and says why.
    expect(device.reason).not.toContain("built without CUDA");
    if (device.name === "cpu") expect(device.reason).toMatch(/^auto: /);
  }, 3_600_000);
});
