/**
 * Differential tests: random tables with nulls run through gpudf and through DuckDB must agree.
 * Hash-ordered results are sorted before comparing.
 */
import { describe, expect, it } from "vitest";

import { DataFrame, Series, type DType } from "../src/index.js";
import { duckdbRows, duckdbTable } from "./support/duckdb.js";
import { randomColumns, type ColumnSpec } from "./support/random.js";

const SPECS: ColumnSpec[] = [
  { name: "i8", dtype: "int8", nulls: 0.1 },
  { name: "i32", dtype: "int32", nulls: 0.2, cardinality: 50 },
  { name: "i64", dtype: "int64", nulls: 0.1 },
  { name: "u16", dtype: "uint16", nulls: 0 },
  { name: "u64", dtype: "uint64", nulls: 0.3 },
  { name: "f32", dtype: "float32", nulls: 0.1 },
  { name: "f64", dtype: "float64", nulls: 0.25, cardinality: 20 },
  { name: "s", dtype: "utf8", nulls: 0.15, cardinality: 30 },
  { name: "b", dtype: "bool", nulls: 0.2 },
];

/** A gpudf frame with the exact dtypes of the specs. */
function frame(columns: Record<string, unknown[]>, specs: readonly ColumnSpec[]): DataFrame {
  let df = new DataFrame();
  for (const spec of specs) df = df.withColumn(new Series(spec.name, columns[spec.name] as unknown[], spec.dtype));
  return df;
}

const dtypesOf = (specs: readonly ColumnSpec[]): Record<string, DType> =>
  Object.fromEntries(specs.map((s) => [s.name, s.dtype]));

describe("differential: gpudf vs DuckDB on random tables", () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: the loaded values agree cell by cell`, async () => {
      const rows = 1000 + seed * 37;
      const columns = randomColumns(seed, rows, SPECS);
      const df = frame(columns, SPECS);
      const conn = await duckdbTable(columns, dtypesOf(SPECS));
      const expected = await duckdbRows(conn, `SELECT * FROM t`);
      expect(df.dtypes).toEqual(SPECS.map((s) => s.dtype));
      expect(df.toRecords()).toEqual(expected);
      conn.closeSync();
      df.dispose();
    });
  }
});
