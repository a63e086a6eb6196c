/**
 * The five db-benchmark join questions (h2oai / duckdblabs "db-benchmark", J1 tables) written
 * with gpudf's public API. Tables, as bench/gen/join.mjs generates them:
 *   x       N rows:  id1 id2 id3 (int32), id4 id5 id6 (utf8 "id" + id1..id3), v1 (float64)
 *   small   N/1e6:   id1, id4, v2
 *   medium  N/1e3:   id1, id2, id4, id5, v2
 *   big     N:       id1 .. id6, v2
 * Each answer's checksum is the sum of v1 and of v2 (bench/lib/questions.mjs).
 *
 * Run (after `npm run build`, with data from `npm run bench -- --suite join --size 1e6`):
 *   npx tsx examples/db-benchmark/join.ts bench/data 1e6
 */
import { DataFrame } from "gpudf";

/** The J1 tables. */
export interface JoinTables {
  x: DataFrame;
  small: DataFrame;
  medium: DataFrame;
  big: DataFrame;
}

/** q1: small inner on int. */
export const q1 = ({ x, small }: JoinTables): DataFrame => x.join(small, { on: "id1" });

/** q2: medium inner on int. */
export const q2 = ({ x, medium }: JoinTables): DataFrame => x.join(medium, { on: "id2" });

/** q3: medium outer (left) on int. */
export const q3 = ({ x, medium }: JoinTables): DataFrame => x.join(medium, { on: "id2", how: "left" });

/** q4: medium inner on factor (a string key). */
export const q4 = ({ x, medium }: JoinTables): DataFrame => x.join(medium, { on: "id5" });

/** q5: big inner on int. */
export const q5 = ({ x, big }: JoinTables): DataFrame => x.join(big, { on: "id3" });

/** The questions by db-benchmark id. */
export const JOIN_QUESTIONS = { q1, q2, q3, q4, q5 } as const;

/** [rows, sum of v1, sum of v2]: db-benchmark's checksum of an answer. */
export function checksum(answer: DataFrame): [number, number, number] {
  const sum = (name: string) => (answer.getColumn(name).toArray() as (number | null)[]).reduce<number>((s, v) => s + (v ?? 0), 0);
  return [answer.height, sum("v1"), sum("v2")];
}

/** bench/gen's file name of a J1 table: x is J1_<N>_NA_0_0, the others name their size. */
function tableName(N: number, rows: number | null): string {
  const sci = (n: number) => {
    const e = Math.floor(Math.log10(n));
    const m = n / 10 ** e;
    return Number.isInteger(m) ? `${m}e${e}` : String(n);
  };
  return `J1_${sci(N)}_${rows === null ? "NA" : sci(Math.max(1, rows))}_0_0`;
}

// Run as a script: tsx examples/db-benchmark/join.ts bench/data 1e6 (the generated .arrow files).
if (process.argv[1]?.endsWith("join.ts") && process.argv[3]) {
  const { readIPCSync } = await import("gpudf");
  const [dir, size] = [process.argv[2] as string, Number(process.argv[3])];
  const sizes = { x: null, small: size / 1e6, medium: size / 1e3, big: size };
  const tables = Object.fromEntries(
    Object.entries(sizes).map(([role, rows]) => [role, readIPCSync(`${dir}/${tableName(size, rows)}.arrow`)]),
  ) as unknown as JoinTables;
  for (const [id, q] of Object.entries(JOIN_QUESTIONS)) {
    const t0 = performance.now();
    const ans = q(tables);
    const ms = performance.now() - t0;
    console.log(`${id}: ${ms.toFixed(1)} ms, [rows, v1, v2] = ${JSON.stringify(checksum(ans))}`);
    ans.dispose();
  }
}
