/**
 * Paths, lists of paths and globs as readers and scans take them.
 */
import { readdirSync, statSync } from "node:fs";
import { join, sep } from "node:path";

import { InvalidArgumentError, IoError } from "../errors.js";

const GLOB = /[*?[]/;

function globToRegExp(segment: string): RegExp {
  let re = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const end = segment.indexOf("]", i + 1);
      if (end < 0) re += "\\[";
      else {
        re += `[${segment.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

/**
 * The files a path, a list of paths or a glob (`*`, `?`, `[...]` per segment, `**` for any depth) names, sorted.
 *
 * @example
 * expandPaths("data/*.parquet"); // ["data/a.parquet", "data/b.parquet"]
 */
export function expandPaths(source: string | readonly string[]): string[] {
  const patterns = typeof source === "string" ? [source] : Array.isArray(source) ? [...source] : null;
  if (patterns === null || patterns.length === 0 || patterns.some((p) => typeof p !== "string")) {
    throw new InvalidArgumentError("a scan expects a path, an array of paths or a glob");
  }
  const out: string[] = [];
  for (const pattern of patterns) {
    if (!GLOB.test(pattern)) {
      out.push(pattern);
      continue;
    }
    const parts = pattern.split(sep);
    const absolute = pattern.startsWith(sep);
    const found: string[] = [];
    const walk = (dir: string, k: number): void => {
      if (k === parts.length) {
        found.push(dir);
        return;
      }
      const part = parts[k] as string;
      if (!GLOB.test(part)) {
        walk(dir === "" ? part : join(dir, part), k + 1);
        return;
      }
      const here = dir === "" ? "." : dir;
      let entries: string[];
      try {
        entries = readdirSync(here).sort();
      } catch {
        return;
      }
      if (part === "**") {
        walk(dir, k + 1);
        for (const e of entries) if (statSync(join(here, e)).isDirectory()) walk(dir === "" ? e : join(dir, e), k);
        return;
      }
      const re = globToRegExp(part);
      for (const e of entries) if (re.test(e)) walk(dir === "" ? e : join(dir, e), k + 1);
    };
    walk(absolute ? sep : "", absolute ? 1 : 0);
    const files = [...new Set(found)].filter((f) => statSync(f).isFile()).sort();
    if (files.length === 0) throw new IoError(`no file matches ${pattern}`);
    out.push(...files);
  }
  return out;
}

