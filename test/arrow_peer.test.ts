// apache-arrow is a peer dependency: gpudf's own `import "apache-arrow"` resolves to the
// application's copy, so toArrow() builds tables of that copy and the application's
// tableToIPC writes them whole. Two kinds of "other copy" are checked: the CommonJS build of
// the same version (distinct classes in one process), and another version (17.0.0, installed
// as the devDependency alias apache-arrow-17) as the only apache-arrow of a project that
// imports the compiled package.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import * as esm from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { DataFrame, fromArrow } from "../src/index.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);

type ArrowModule = typeof esm;

describe("apache-arrow's CommonJS and ESM builds (distinct class identities)", () => {
  const cjs = require("apache-arrow") as ArrowModule;

  it("are distinct copies", () => {
    expect(cjs.Table).not.toBe(esm.Table);
  });

  it("toArrow() builds tables of the copy gpudf imports, which tableToIPC writes whole", () => {
    const df = new DataFrame({ a: [1, 2, null], s: ["x", null, "zz"], f: [0.5, -1.25, 3] });
    const table = df.toArrow();
    expect(table).toBeInstanceOf(esm.Table);
    const back = esm.tableFromIPC(esm.tableToIPC(table, "stream"));
    expect(back.numRows).toBe(3);
    expect(fromArrow(back).toRecords()).toEqual(df.toRecords());
  });

  it("a CommonJS table goes in, and its IPC bytes round-trip through the ESM copy", () => {
    const foreign = cjs.tableFromArrays({ k: Int32Array.from([3, 1, 2]), v: Float64Array.from([0.25, 1.5, -2]) });
    const df = fromArrow(foreign);
    expect(df.dtypes).toEqual(["int32", "float64"]);
    const viaEsm = esm.tableFromIPC(cjs.tableToIPC(foreign, "file"));
    expect(fromArrow(viaEsm).toRecords()).toEqual([{ k: 3, v: 0.25 }, { k: 1, v: 1.5 }, { k: 2, v: -2 }]);
    // And the way back: gpudf's (ESM) table, its bytes read by the CommonJS copy.
    const again = cjs.tableFromIPC(esm.tableToIPC(df.toArrow()));
    expect(again).toBeInstanceOf(cjs.Table);
    expect(fromArrow(again).toRecords()).toEqual(df.toRecords());
  });
});

describe("a project whose only apache-arrow is 17.0.0", () => {
  let dir = "";

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "gpudf-arrow-peer-"));
    const pkg = join(dir, "node_modules", "gpudf");
    mkdirSync(pkg, { recursive: true });
    cpSync(join(root, "package.json"), join(pkg, "package.json"));
    // The compiled package, as npm installs it (dist/ is what "main" names).
    execFileSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "tsconfig.build.json"), "--outDir", join(pkg, "dist")], { stdio: "pipe" });
    symlinkSync(join(root, "node_modules", "apache-arrow-17"), join(dir, "node_modules", "apache-arrow"), "dir");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", type: "module", private: true }));
    writeFileSync(
      join(dir, "app.mjs"),
      [
        'import { readFileSync } from "node:fs";',
        'import { Table, tableFromIPC, tableToIPC } from "apache-arrow";',
        'import { DataFrame, fromArrow } from "gpudf";',
        'const version = JSON.parse(readFileSync(new URL("./node_modules/apache-arrow/package.json", import.meta.url), "utf8")).version;',
        'const df = new DataFrame({ id: [1, 2, 3], name: ["a", null, "c"], x: [1.5, 2.5, null] });',
        "const table = df.toArrow();",
        "const back = fromArrow(tableFromIPC(tableToIPC(table)));",
        "console.log(JSON.stringify({ version, same: table instanceof Table, rows: back.toRecords() }));",
      ].join("\n"),
    );
  }, 180_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("gets tables of its own copy from toArrow(), and tableToIPC round-trips them", () => {
    const addon = process.env["GPUDF_ADDON"] ?? join(root, "build", "Release", "gpudf.node");
    const out = execFileSync(process.execPath, ["app.mjs"], { cwd: dir, env: { ...process.env, GPUDF_ADDON: addon }, encoding: "utf8" });
    expect(JSON.parse(out)).toEqual({
      version: "17.0.0",
      same: true,
      rows: [
        { id: 1, name: "a", x: 1.5 },
        { id: 2, name: null, x: 2.5 },
        { id: 3, name: "c", x: null },
      ],
    });
  });
});
