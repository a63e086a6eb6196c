#!/usr/bin/env bash
# Peak memory of reading a ~1 GB CSV with gpudf's readCSVSync, measured by /usr/bin/time -v.
# The file is the db-benchmark G1_1e7_1e2_0_0 CSV twice over (20,000,000 rows, ~1.02 GB), made
# from bench/data (run `npm run bench -- --size 1e7 --suite groupby` or bench/gen first).
# Usage: bash bench/micro/csv-memory.sh   (after `npm run build`)
set -euo pipefail
cd "$(dirname "$0")/../.."
src=bench/data/G1_1e7_1e2_0_0.csv
big=bench/data/G1_2e7_concat.csv
[ -f "$src" ] || node bench/gen/index.mjs --kind groupby --size 1e7 --nas 0
[ -f "$big" ] || { cat "$src"; tail -n +2 "$src"; } > "$big"
echo "file: $big, $(stat -c %s "$big") bytes"
/usr/bin/time -v node --input-type=module -e '
const g = await import(new URL("dist/index.js", "file://" + process.cwd() + "/"));
const t0 = performance.now();
const df = g.readCSVSync(process.argv[1]);
console.log(`rows ${df.height}, ${((performance.now() - t0) / 1000).toFixed(2)} s, columns ${(g.memory().cpu.liveBytes / 1e6).toFixed(0)} MB`);
' "$big" 2>&1 | grep -E "^rows|Maximum resident|Elapsed"
