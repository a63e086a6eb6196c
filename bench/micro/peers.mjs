// The two libraries the in-process micro checks compare: gpudf (the built dist/, or src/ when run
// through tsx before a build) and nodejs-polars.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

let loaded;
try {
  loaded = await import("../../dist/index.js");
} catch {
  loaded = await import("../../src/index.ts");
}

export const gpudf = loaded;
export const pl = require("nodejs-polars");
