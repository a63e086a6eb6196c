/**
 * The documentation runs as written: every ```ts block of the README and of the "coming from"
 * pages is a file under examples/readme/ (named by the `<!-- example: PATH -->` line just above
 * the block, and equal to it byte for byte), and every such file runs with tsx in an empty
 * temporary folder — after its `NAME.setup.ts` (or, for `PREFIX-NAME.ts`, the shared
 * `PREFIX.setup.ts`), which writes the data it reads — printing exactly `NAME.out`. The output files hold what the comments in the snippets promise.
 *
 * `UPDATE_README_OUTPUT=1 npx vitest run test/readme.test.ts` rewrites the .out files; read the
 * diff before committing it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const examplesDir = join(root, "examples", "readme");
const DOCS = ["README.md", "docs/coming-from-pandas.md", "docs/coming-from-polars.md"];

interface Block {
  doc: string;
  line: number;
  example: string | undefined;
  code: string;
}

/** The ```ts blocks of a Markdown file, each with the example path named just above it. */
function tsBlocks(doc: string): Block[] {
  const lines = readFileSync(join(root, doc), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "```ts") continue;
    const marker = /^<!-- example: (\S+) -->$/.exec(lines[i - 1] ?? "");
    const end = lines.indexOf("```", i + 1);
    if (end < 0) throw new Error(`${doc}:${i + 1}: unterminated code block`);
    blocks.push({ doc, line: i + 1, example: marker?.[1], code: lines.slice(i + 1, end).join("\n") + "\n" });
    i = end;
  }
  return blocks;
}

/** Runs a TypeScript file with tsx in `cwd`, resolving "gpudf" to the sources (tsconfig paths). */
function runTs(file: string, cwd: string) {
  const tsx = join(root, "node_modules", "tsx", "dist", "cli.mjs");
  return spawnSync(process.execPath, [tsx, "--tsconfig", join(root, "tsconfig.json"), file], {
    cwd,
    encoding: "utf8",
    // The snippets print device().name; the outputs are the CPU backend's.
    env: { ...process.env, GPUDF_DEVICE: "cpu", NO_COLOR: "1", FORCE_COLOR: "0" },
    timeout: 120_000,
  });
}

const blocks = DOCS.flatMap(tsBlocks);
const examples = readdirSync(examplesDir)
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".setup.ts"))
  .sort();

describe("documentation snippets", () => {
  it("finds the snippets of every page", () => {
    for (const doc of DOCS) expect(blocks.filter((b) => b.doc === doc).length, doc).toBeGreaterThan(0);
  });

  it.each(blocks.map((b) => [`${b.doc}:${b.line}`, b] as const))("%s is an example file, verbatim", (_, b) => {
    expect(b.example, `${b.doc}:${b.line}: add <!-- example: examples/readme/NAME.ts --> above the block`).toBeDefined();
    const path = join(root, b.example!);
    expect(existsSync(path), `${b.example} does not exist`).toBe(true);
    expect(b.code).toBe(readFileSync(path, "utf8"));
  });

  it("shows every example file in the documentation", () => {
    const shown = new Set(blocks.map((b) => b.example));
    for (const f of examples) expect(shown.has(`examples/readme/${f}`), f).toBe(true);
  });
});

describe.each(examples)("examples/readme/%s", (file) => {
  it("runs and prints what its comments say", () => {
    const dir = mkdtempSync(join(tmpdir(), "gpudf-readme-"));
    try {
      const name = file.slice(0, -3);
      const setup = [name, name.split("-")[0]]
        .map((n) => join(examplesDir, `${n}.setup.ts`))
        .find((p) => existsSync(p));
      if (setup !== undefined) {
        const s = runTs(setup, dir);
        expect(s.status, s.stderr).toBe(0);
      }
      const r = runTs(join(examplesDir, file), dir);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      const expectedPath = join(examplesDir, `${name}.out`);
      if (process.env.UPDATE_README_OUTPUT === "1") writeFileSync(expectedPath, r.stdout);
      expect(r.stdout).toBe(readFileSync(expectedPath, "utf8"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
