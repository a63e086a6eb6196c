#!/usr/bin/env bash
# Builds the folder that bench/gpu.sh needs on a GPU box with no Node.js and no network
# (default: .carry/ at the repo root, git-ignored):
#   node.xz             this machine's Node binary (symbol table stripped), xz-compressed
#   payload.tar.xz      build/Release/gpudf.node, build/gpudf_native_tests (CUDA on, sm_90
#                       checked), dist/, and the node_modules folders the library, the tests and
#                       the benchmark need (parquet-wasm, apache-arrow, vitest + deps, tsx,
#                       csv-parse, @duckdb/node-api + linux-x64 bindings; nodejs-polars + its
#                       binary on request), resolved from package-lock.json, and the CUDA
#                       simulator's build (build-sim/Release/gpudf.node and
#                       build-sim/gpudf_native_tests, from `npm run test:cuda-sim`) when
#                       present, so gpu.sh can compare the GPU with the simulator; it fails when a
#                       bare import in src/, test/, examples/ or the benchmark is not packed
# and prints the sizes, with the tracked tree, against the 64 MiB transfer limit.
#
#   bash bench/pack-gpu.sh [CARRY_DIR]        (run `npm run build` first, CUDA on)
#
# PEERS (default "duckdb") names the peer engines to carry. DuckDB is always needed (the vitest
# suite's differential tests use it). Measured here (Node 20.20.2, addon with sm_80 + sm_90 +
# PTX): node.xz 20.9 MiB, payload 34.2 MiB, tracked tree 1.9 MiB: 56.9 MiB in all. Polars'
# binary alone is 19.3 MiB compressed, so PEERS="duckdb polars" goes over the limit: polars
# travels only on a trip of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
CARRY="${1:-.carry}"
LIMIT=$((64 * 1024 * 1024))
THREADS="${XZ_THREADS:-2}"

for f in build/Release/gpudf.node build/gpudf_native_tests dist/index.js; do
  [ -e "$f" ] || { echo "pack-gpu: $f is missing: run \`npm run build\` first" >&2; exit 1; }
done
# The GPU box has an sm_90 GPU (H100/H200): a CPU-only build, or one without sm_90 code, would
# test nothing there.
for f in build/Release/gpudf.node build/gpudf_native_tests; do
  archs=$(node bench/lib/cuda-archs.mjs "$f")
  echo "pack-gpu: $f: CUDA code ${archs:-none}"
  case " $archs " in *" sm_90 "*) ;; *) echo "pack-gpu: $f has no sm_90 code: build with CUDA on" >&2; exit 1 ;; esac
done

# xz -9: a 64 MiB dictionary, so the second copy of the device code (the addon and the native
# tests each hold the same 16 MiB of fat binaries) and parquet-wasm's three near-identical
# .wasm builds compress to almost nothing (-6's 8 MiB window missed them: 3 MiB more).
XZ=(xz -9 -T"$THREADS")
mkdir -p "$CARRY"
NODE_BIN=$(command -v node)
echo "pack-gpu: compressing node ($(node --version), symbol table stripped) ..."
# Node's .symtab/.strtab (10 MiB here) serve debuggers only; addons link against .dynsym, kept.
if command -v strip > /dev/null && strip -o "$CARRY/node.stripped" "$NODE_BIN"; then NODE_BIN="$CARRY/node.stripped"; fi
"$NODE_BIN" --version > /dev/null
"${XZ[@]}" -c "$NODE_BIN" > "$CARRY/node.xz.tmp" && mv "$CARRY/node.xz.tmp" "$CARRY/node.xz"
rm -f "$CARRY/node.stripped"

PEERS="${PEERS:-duckdb}"
# The library's run-time dependencies (package.json "dependencies" less the build tools), what
# the tests import (apache-arrow, the peer dependency; parquet-wasm, which the interop tests
# write files with), and tsx (test/device + dispose spawn children with it).
mapfile -t runtime < <(node -p 'Object.keys(require("./package.json").dependencies)
  .filter((d) => d !== "cmake-js" && d !== "node-addon-api").join("\n")' | sed '/^$/d')
roots=("${runtime[@]}" apache-arrow parquet-wasm vitest tsx csv-parse @duckdb/node-api)
# Everything that runs there must find its imports among them: deps.mjs fails otherwise.
checked=(src test examples vitest.config.ts scripts bench/run.mjs bench/lib bench/gen
  bench/engines/gpudf.mjs bench/engines/duckdb.mjs bench/tpch)
imports_of=()
# Without polars, gpu.sh leaves out the test files that need it (test/reduce.polars.test.ts).
case " $PEERS " in *" polars "*) roots+=(nodejs-polars); checked+=(bench/engines/polars.mjs) ;;
  *) imports_of+=(--may-lack nodejs-polars) ;; esac
for p in "${checked[@]}"; do imports_of+=(--imports-of "$p"); done
MODULES_LIST=$(node bench/lib/deps.mjs "${imports_of[@]}" "${roots[@]}") || {
  echo "pack-gpu: add the missing packages to the roots above" >&2; exit 1; }
mapfile -t MODULES <<< "$MODULES_LIST"
echo "pack-gpu: packing the addon, dist/ and ${#MODULES[@]} node_modules folders ..."
# -h: node_modules may be a symlink (git worktrees share one): store the files, not the link.
SIM=()
if [ -f build-sim/Release/gpudf.node ] && [ -f build-sim/gpudf_native_tests ]; then
  SIM=(build-sim/Release/gpudf.node build-sim/gpudf_native_tests)
else
  echo "pack-gpu: no simulator build (build-sim/): gpu.sh will not compare the GPU with it"
fi
tar -ch build/Release/gpudf.node build/gpudf_native_tests "${SIM[@]}" dist "${MODULES[@]}" \
  | "${XZ[@]}" > "$CARRY/payload.tar.xz.tmp"
mv "$CARRY/payload.tar.xz.tmp" "$CARRY/payload.tar.xz"

carry_bytes=$(du -cb "$CARRY"/node.xz "$CARRY"/payload.tar.xz | tail -1 | cut -f1)
tree_bytes=$(git ls-files -z | xargs -0 du -cb 2>/dev/null | awk '/\ttotal$/ {s += $1} END {print s + 0}')
total=$((carry_bytes + tree_bytes))
mib() { awk -v b="$1" 'BEGIN {printf "%.1f MiB", b / 1048576}'; }
echo "pack-gpu: $CARRY/node.xz        $(mib "$(stat -c %s "$CARRY/node.xz")")"
echo "pack-gpu: $CARRY/payload.tar.xz $(mib "$(stat -c %s "$CARRY/payload.tar.xz")")"
echo "pack-gpu: tracked tree          $(mib "$tree_bytes")"
echo "pack-gpu: total                 $(mib "$total") of $(mib "$LIMIT")"
if [ "$total" -gt "$LIMIT" ]; then echo "pack-gpu: OVER the 64 MiB limit" >&2; exit 1; fi
