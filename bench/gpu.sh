#!/usr/bin/env bash
# GPU-box check for a Linux machine with an NVIDIA GPU and driver but no Node.js and no network.
# Needs the folder made by bench/pack-gpu.sh (default .carry/ at the repo root: node.xz and
# payload.tar.xz). Runs, within 8 minutes in all (each phase has its own time limit):
#   1. the native C++ tests on the GPU        (node scripts/native-tests.mjs --device cuda)
#   2. the vitest suite with GPUDF_DEVICE=cuda
#   3. the benchmark at 1e7 rows (groupby, join, micro) then 1e8 rows (groupby, micro),
#      engines gpudf, duckdb (and polars if carried); data generated here with all cores
# and writes every log and result into OUT (at most 8 files), ending with a short table.
#
#   bash bench/gpu.sh OUT [CARRY_DIR]
#
# Switches for a dry run on a machine without a GPU:
#   GPUDF_GPU_SH_DEVICE=cpu     run everything on the CPU backend instead of cuda
#   GPUDF_GPU_SH_SIZES="1e4 1e5" benchmark sizes (default "1e7 1e8")
set -uo pipefail
START=$(date +%s)
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$(mkdir -p "${1:?usage: bench/gpu.sh OUT [CARRY_DIR]}" && cd "$1" && pwd)"
CARRY="$(cd "$ROOT" && cd "${2:-.carry}" && pwd)"
DEVICE="${GPUDF_GPU_SH_DEVICE:-cuda}"
SIZES="${GPUDF_GPU_SH_SIZES:-1e7 1e8}"
BUDGET=480           # 8 minutes for everything
RESERVE=15           # kept for the summary
cd "$ROOT"
SUMMARY="$OUT/summary.txt"
: > "$SUMMARY"
rows=()

left() { echo $((BUDGET - RESERVE - ($(date +%s) - START))); }
# phase NAME LIMIT_S LOG CMD...: runs CMD under min(LIMIT, time left), records status and seconds.
phase() {
  local name=$1 limit=$2 log=$3; shift 3
  local remain; remain=$(left)
  [ "$limit" -gt "$remain" ] && limit=$remain
  if [ "$limit" -le 5 ]; then rows+=("$name|skipped (no time left)|0"); return; fi
  local t0; t0=$(date +%s)
  timeout --kill-after=5 "$limit" "$@" >> "$log" 2>&1
  local rc=$? status
  case $rc in 0) status=ok ;; 124|137) status="TIMEOUT (${limit} s)" ;; *) status="FAILED (exit $rc)" ;; esac
  rows+=("$name|$status|$(( $(date +%s) - t0 ))")
}

# 0. unpack node and the payload (the addon, dist/, node_modules)
NODE_DIR=/tmp/gpudf-node; mkdir -p "$NODE_DIR"
xz -dc "$CARRY/node.xz" > "$NODE_DIR/node" && chmod +x "$NODE_DIR/node"
export PATH="$NODE_DIR:$PATH"
if [ -L node_modules ] && [ ! -d node_modules/vitest ]; then rm -f node_modules; fi   # a link that travelled without its target
tar -xJf "$CARRY/payload.tar.xz" -C "$ROOT"
{
  echo "gpu.sh $(date -u +%FT%TZ) device=$DEVICE sizes=$SIZES"
  echo "node $(node --version)"; nproc; free -g | head -2
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 || echo "nvidia-smi: not available"
} >> "$SUMMARY"
rows+=("unpack|ok|$(( $(date +%s) - START ))")

# 1-2. tests
phase "native tests (--device $DEVICE)" 60 "$OUT/native-tests.log" node scripts/native-tests.mjs --device "$DEVICE"
phase "vitest (GPUDF_DEVICE=$DEVICE)" 150 "$OUT/vitest.log" env GPUDF_DEVICE="$DEVICE" node node_modules/vitest/vitest.mjs run

# 3. benchmark: one results file for all sizes (JSON + markdown)
NAME="gpu-$(date -u +%F)-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr -c 'A-Za-z0-9\n' '-' | tr -s '-' | sed 's/-$//' || true)"
[ "$NAME" = "gpu-$(date -u +%F)-" ] && NAME="gpu-$(date -u +%F)-$DEVICE"
ENGINES=gpudf,duckdb   # polars too when pack-gpu.sh carried it (PEERS="duckdb polars")
[ -d node_modules/nodejs-polars ] && ENGINES=gpudf,polars,duckdb
n=0; count=$(echo $SIZES | wc -w)
for size in $SIZES; do
  n=$((n + 1))
  # the last size gets what is left; earlier ones an even share of it
  share=$(( $(left) / (count - n + 1) ))
  suites="groupby,join,micro"; [ "$n" -gt 1 ] && suites="groupby,micro"
  phase "bench $size ($suites)" "$share" "$OUT/bench.log" \
    node bench/run.mjs --size "$size" --engines "$ENGINES" --device "$DEVICE" --suite "$suites" \
      --nas 0 --timeout 60 --out "$OUT" --name "$NAME"
done

# summary: phases, then gpudf's results
{
  echo
  echo "| phase | status | seconds |"
  echo "|---|---|---|"
  for r in "${rows[@]}"; do echo "| ${r//|/ | } |"; done
  echo "| total | | $(( $(date +%s) - START )) |"
} >> "$SUMMARY"
cat "$SUMMARY"
grep -E "Tests +[0-9]|passed|failed" "$OUT/vitest.log" 2>/dev/null | tail -2
tail -2 "$OUT/native-tests.log" 2>/dev/null
[ -f "$OUT/$NAME.md" ] && grep -E "^#### |^\| (CSV load|q|sort|filter|unique|csv)" "$OUT/$NAME.md" | cut -c1-160 | head -40
ls "$OUT"
