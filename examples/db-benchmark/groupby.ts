/**
 * The ten db-benchmark groupby questions (h2oai / duckdblabs "db-benchmark", G1 table) written
 * with gpudf's public API. The table, as bench/gen/groupby.mjs generates it:
 *   id1 id2 id3 (utf8 "id001"…, id3 "id0000000001"…), id4 id5 id6 (int32), v1 v2 (int32), v3 (float64)
 * Answers name their measure columns as bench/lib/questions.mjs says, so checksums compare.
 * Group order is unspecified (as in the benchmark); compare answers sorted by their keys.
 *
 * Run (with data from `npm run bench -- --suite groupby --size 1e6`):
 *   npx tsx examples/db-benchmark/groupby.ts bench/data/G1_1e6_1e2_0_0.csv
 */
import { DataFrame, col, corr, len } from "gpudf";

/** q1: sum v1 by id1. */
export const q1 = (x: DataFrame): DataFrame => x.groupBy("id1").agg(col("v1").sum());

/** q2: sum v1 by id1:id2. */
export const q2 = (x: DataFrame): DataFrame => x.groupBy("id1", "id2").agg(col("v1").sum());

/** q3: sum v1, mean v3 by id3. */
export const q3 = (x: DataFrame): DataFrame => x.groupBy("id3").agg(col("v1").sum(), col("v3").mean());

/** q4: mean v1:v3 by id4. */
export const q4 = (x: DataFrame): DataFrame => x.groupBy("id4").agg(col("v1").mean(), col("v2").mean(), col("v3").mean());

/** q5: sum v1:v3 by id6. */
export const q5 = (x: DataFrame): DataFrame => x.groupBy("id6").agg(col("v1").sum(), col("v2").sum(), col("v3").sum());

/** q6: median and standard deviation of v3 by id4, id5. */
export const q6 = (x: DataFrame): DataFrame =>
  x.groupBy("id4", "id5").agg(col("v3").median().alias("median_v3"), col("v3").std().alias("sd_v3"));

/** q7: max v1 - min v2 by id3. */
export const q7 = (x: DataFrame): DataFrame => x.groupBy("id3").agg(col("v1").max().sub(col("v2").min()).alias("range_v1_v2"));

/**
 * q8: the largest two v3 by id6 (DuckDB's `max(v3, 2)`, Polars' `top_k`): non-null v3, then
 * each group's two largest rows with topK (no sort of the frame). Only the two columns needed
 * are carried through the filter.
 */
export const q8 = (x: DataFrame): DataFrame => {
  const needed = x.select(col("id6"), col("v3").alias("largest2_v3"));
  const present = needed.filter(col("largest2_v3").isNotNull());
  const answer = present.groupBy("id6").topK(2, "largest2_v3");
  for (const f of [needed, present]) f.dispose();
  return answer;
};

/** q9: squared Pearson correlation of v1 and v2 by id2, id4. */
export const q9 = (x: DataFrame): DataFrame => x.groupBy("id2", "id4").agg(corr("v1", "v2").pow(2).alias("r2"));

/** q10: sum v3 and the row count by all six ids. */
export const q10 = (x: DataFrame): DataFrame =>
  x.groupBy("id1", "id2", "id3", "id4", "id5", "id6").agg(col("v3").sum(), len().alias("count"));

/** The questions by db-benchmark id. */
export const GROUPBY_QUESTIONS = { q1, q2, q3, q4, q5, q6, q7, q8, q9, q10 } as const;

/** The measure columns of each answer (bench/lib/questions.mjs). */
export const MEASURES: Record<keyof typeof GROUPBY_QUESTIONS, string[]> = {
  q1: ["v1"], q2: ["v1"], q3: ["v1", "v3"], q4: ["v1", "v2", "v3"], q5: ["v1", "v2", "v3"],
  q6: ["median_v3", "sd_v3"], q7: ["range_v1_v2"], q8: ["largest2_v3"], q9: ["r2"], q10: ["v3", "count"],
};

/** [rows, the sum of each measure]: db-benchmark's checksum of an answer. */
export function checksum(id: keyof typeof GROUPBY_QUESTIONS, answer: DataFrame): number[] {
  const sum = (name: string) =>
    (answer.getColumn(name).toArray() as (number | bigint | null)[]).reduce<number>((s, v) => s + (v === null ? 0 : Number(v)), 0);
  return [answer.height, ...MEASURES[id].map(sum)];
}

// Run as a script: tsx examples/db-benchmark/groupby.ts <G1 csv file>.
if (process.argv[1]?.endsWith("groupby.ts") && process.argv[2]) {
  const { readCSV } = await import("gpudf");
  const x = await readCSV(process.argv[2], {
    dtypes: { id1: "utf8", id2: "utf8", id3: "utf8", id4: "int32", id5: "int32", id6: "int32", v1: "int32", v2: "int32", v3: "float64" },
  });
  for (const [id, q] of Object.entries(GROUPBY_QUESTIONS) as [keyof typeof GROUPBY_QUESTIONS, (x: DataFrame) => DataFrame][]) {
    const t0 = performance.now();
    const ans = q(x);
    const ms = performance.now() - t0;
    console.log(`${id}: ${ms.toFixed(1)} ms, [rows, ...measures] = ${JSON.stringify(checksum(id, ans))}`);
    ans.dispose();
  }
}
