#!/usr/bin/env bash
# GPU-box check for a Linux machine with an NVIDIA GPU and driver but no Node.js and no network.
# Needs the folder made by bench/pack-gpu.sh (default .carry/ at the repo root: node.xz and
# payload.tar.xz); unpacks Node into CARRY_DIR/bin and the payload into the repo, then runs,
# within 8 minutes in all (each phase under its own time limit, with the carried Node only):
#   0. when the CUDA simulator's build was carried (build-sim/): the simulator's own tests, then
#      scripts/device-compare.mjs's workload through the simulator and on the GPU, compared
#   1. the native C++ tests on the GPU        (scripts/native-tests.mjs --device cuda)
#   2. the vitest suite with GPUDF_DEVICE=cuda
#   3. the benchmark, engines gpudf and duckdb (and polars if carried), data generated here
#      with all cores: 1e7 rows (groupby, join, micro) in half the time left, then 1e8 rows
#      groupby in what remains, then 1e8 micro if any time is still left
# and writes every log and result into OUT, ending with a short table.
#
#   bash bench/gpu.sh OUT [CARRY_DIR]
#
# Switches for a dry run on a machine without a GPU:
#   GPUDF_GPU_SH_DEVICE=cpu     run everything on the CPU backend instead of cuda
#   GPUDF_GPU_SH_SIZES="1e4 1e5" benchmark sizes (default "1e7 1e8")
#   GPUDF_GPU_SH_TIME_SCALE=4   multiply the budget and every phase's limit (a slow machine:
#                               the vitest suite alone takes about 3 minutes on 2 cores)
set -uo pipefail
START=$(date +%s)
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$(mkdir -p "${1:?usage: bench/gpu.sh OUT [CARRY_DIR]}" && cd "$1" && pwd)"
CARRY="$(cd "$ROOT" && cd "${2:-.carry}" && pwd)"
DEVICE="${GPUDF_GPU_SH_DEVICE:-cuda}"
SIZES="${GPUDF_GPU_SH_SIZES:-1e7 1e8}"
SCALE="${GPUDF_GPU_SH_TIME_SCALE:-1}"
BUDGET=$((480 * SCALE))   # 8 minutes for everything
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

# 0. unpack node and the payload (the addon, dist/, node_modules). Node goes beside the carried
# files (not /tmp, which may be mounted noexec); xz comes from xz-utils, else Python's lzma.
unxz() {
  if command -v xz > /dev/null; then xz -dc "$1"
  else python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer, 1 << 20)' "$1"; fi
}
fail() { echo "gpu.sh: $*" | tee -a "$SUMMARY" >&2; exit 1; }
NODE_DIR="$CARRY/bin"; NODE="$NODE_DIR/node"; mkdir -p "$NODE_DIR"
unxz "$CARRY/node.xz" > "$NODE.tmp" && chmod +x "$NODE.tmp" && mv "$NODE.tmp" "$NODE" || fail "could not unpack $CARRY/node.xz"
"$NODE" --version > /dev/null || fail "the carried node does not run: $NODE"
export PATH="$NODE_DIR:$PATH"; hash -r   # anything that calls plain `node` gets the carried one too
if [ -L node_modules ] && [ ! -d node_modules/vitest ]; then rm -f node_modules; fi   # a link that travelled without its target
unxz "$CARRY/payload.tar.xz" | tar -x -C "$ROOT" || fail "could not unpack $CARRY/payload.tar.xz"
{
  echo "gpu.sh $(date -u +%FT%TZ) device=$DEVICE sizes=$SIZES budget=${BUDGET}s"
  echo "node $("$NODE" --version) ($(command -v node))"; echo "cores $(nproc)"; free -g | head -2
  if command -v nvidia-smi > /dev/null; then nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
  else echo "nvidia-smi: not available"; fi
} >> "$SUMMARY"
rows+=("unpack|ok|$(( $(date +%s) - START ))")

# 0. the simulator against the GPU: the same .cu code run on the CPU here and on the GPU must
# give the same results, so the two cannot drift apart unnoticed.
if [ -x build-sim/gpudf_native_tests ] && [ -f build-sim/Release/gpudf.node ]; then
  phase "cuda-sim self-tests" $((30 * SCALE)) "$OUT/device-compare.log" build-sim/gpudf_native_tests --device cuda cuda_sim
  phase "device-compare: simulator" $((60 * SCALE)) "$OUT/device-compare.log" \
    env GPUDF_ADDON="$ROOT/build-sim/Release/gpudf.node" GPUDF_DEVICE=cuda "$NODE" scripts/device-compare.mjs --run "$OUT/compare-sim.json"
  phase "device-compare: $DEVICE" $((60 * SCALE)) "$OUT/device-compare.log" \
    env GPUDF_DEVICE="$DEVICE" "$NODE" scripts/device-compare.mjs --run "$OUT/compare-device.json"
  phase "device-compare: simulator vs $DEVICE" 30 "$OUT/device-compare.log" \
    "$NODE" scripts/device-compare.mjs --compare "$OUT/compare-sim.json" "$OUT/compare-device.json"
else
  rows+=("device-compare|not run (no simulator build carried)|0")
fi

# 1-2. tests
phase "native tests (--device $DEVICE)" $((60 * SCALE)) "$OUT/native-tests.log" "$NODE" scripts/native-tests.mjs --device "$DEVICE"
# nodejs-polars does not fit in the 64 MiB beside DuckDB (pack-gpu.sh): without it the test
# files that need it are left out, and named in the table.
vitest_args=()
if [ ! -d node_modules/nodejs-polars ]; then
  for f in $(grep -l nodejs-polars test/*.test.ts); do vitest_args+=(--exclude "$f"); rows+=("vitest: $f|not run (nodejs-polars not carried)|0"); done
fi
# The install test builds a project with npm from its cache and the registry; this box has neither.
vitest_args+=(--exclude test/pack.test.ts); rows+=("vitest: test/pack.test.ts|not run (needs npm and a registry)|0")
phase "vitest (GPUDF_DEVICE=$DEVICE)" $((150 * SCALE)) "$OUT/vitest.log" env GPUDF_DEVICE="$DEVICE" "$NODE" node_modules/vitest/vitest.mjs run "${vitest_args[@]}"

# 3. benchmark: one results file for all sizes (JSON + markdown)
NAME="gpu-$(date -u +%F)-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr -c 'A-Za-z0-9\n' '-' | tr -s '-' | sed 's/-$//' || true)"
[ "$NAME" = "gpu-$(date -u +%F)-" ] && NAME="gpu-$(date -u +%F)-$DEVICE"
ENGINES=gpudf,duckdb   # polars too when pack-gpu.sh carried it (PEERS="duckdb polars")
[ -d node_modules/nodejs-polars ] && ENGINES=gpudf,polars,duckdb
bench() {   # bench SIZE SUITES LIMIT_S
  phase "bench $1 ($2)" "$3" "$OUT/bench.log" \
    "$NODE" bench/run.mjs --size "$1" --engines "$ENGINES" --device "$DEVICE" --suite "$2" \
      --nas 0 --timeout 60 --out "$OUT" --name "$NAME"
}
n=0; count=$(echo $SIZES | wc -w)
for size in $SIZES; do
  n=$((n + 1))
  if [ "$n" -lt "$count" ] || [ "$count" -eq 1 ]; then
    # the smaller sizes: every suite, in an even share of the time left
    bench "$size" groupby,join,micro $(( $(left) / (count - n + 1) ))
  else
    # the largest: groupby in what is left, then micro in what remains after it
    bench "$size" groupby "$(left)"
    bench "$size" micro "$(left)"
  fi
done

# summary: phases, then gpudf's results
{
  echo
  echo "| phase | status | seconds |"
  echo "|---|---|---|"
  for r in "${rows[@]}"; do echo "| ${r//|/ | } |"; done
  echo "| total | | $(( $(date +%s) - START )) |"
  echo
  grep -hoE "(groupby|join|micro) on [A-Za-z0-9_]+ \(data ready in [0-9.]+ s\)" "$OUT/bench.log" 2>/dev/null
} >> "$SUMMARY"
cat "$SUMMARY"
sed "s/\x1b\[[0-9;]*m//g" "$OUT/vitest.log" 2>/dev/null | grep -E "Test Files|Tests +[0-9]" | tail -2
tail -2 "$OUT/native-tests.log" 2>/dev/null
grep -E "^device-compare: .* vs " "$OUT/device-compare.log" 2>/dev/null
[ -f "$OUT/$NAME.md" ] && grep -E "^#### |^\| (CSV load|q|sort|filter|unique|csv)" "$OUT/$NAME.md" | cut -c1-160 | head -40
ls "$OUT"
