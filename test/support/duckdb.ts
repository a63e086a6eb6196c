/**
 * DuckDB as the reference engine for differential tests: load the same columns, run SQL, get
 * rows back as plain JS values.
 */
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from "@duckdb/node-api";

import type { DType } from "../../src/index.js";

const SQL_TYPES: Record<DType, string> = {
  bool: "BOOLEAN",
  int8: "TINYINT",
  int16: "SMALLINT",
  int32: "INTEGER",
  int64: "BIGINT",
  uint8: "UTINYINT",
  uint16: "USMALLINT",
  uint32: "UINTEGER",
  uint64: "UBIGINT",
  float32: "FLOAT",
  float64: "DOUBLE",
  utf8: "VARCHAR",
  large_utf8: "VARCHAR",
  date32: "DATE",
  "timestamp[s]": "TIMESTAMP_S",
  "timestamp[ms]": "TIMESTAMP_MS",
  "timestamp[us]": "TIMESTAMP",
  "timestamp[ns]": "TIMESTAMP_NS",
  // Durations load as their counts; SQL turns them into intervals where a test needs one.
  "duration[s]": "BIGINT",
  "duration[ms]": "BIGINT",
  "duration[us]": "BIGINT",
  "duration[ns]": "BIGINT",
};

function append(ap: DuckDBAppender, dtype: DType, value: unknown): void {
  if (value === null || value === undefined) return ap.appendNull();
  switch (dtype) {
    case "bool": return ap.appendBoolean(value as boolean);
    case "int8": return ap.appendTinyInt(value as number);
    case "int16": return ap.appendSmallInt(value as number);
    case "int32": return ap.appendInteger(value as number);
    case "int64":
    case "duration[s]":
    case "duration[ms]":
    case "duration[us]":
    case "duration[ns]": return ap.appendBigInt(value as bigint);
    case "uint8": return ap.appendUTinyInt(value as number);
    case "uint16": return ap.appendUSmallInt(value as number);
    case "uint32": return ap.appendUInteger(value as number);
    case "uint64": return ap.appendUBigInt(value as bigint);
    case "float32": return ap.appendFloat(value as number);
    case "float64": return ap.appendDouble(value as number);
    case "utf8":
    case "large_utf8": return ap.appendVarchar(value as string);
    default:
      throw new Error(`differential tests do not load ${dtype} into DuckDB yet`);
  }
}

/** A connection to a fresh in-memory DuckDB database. */
export async function duckdbConnection(): Promise<DuckDBConnection> {
  const instance = await DuckDBInstance.create(":memory:");
  return instance.connect();
}

/** A DuckDB connection holding table `t` with the given columns. */
export async function duckdbTable(
  columns: Record<string, unknown[]>,
  dtypes: Record<string, DType>,
): Promise<DuckDBConnection> {
  const conn = await duckdbConnection();
  await duckdbAddTable(conn, "t", columns, dtypes);
  return conn;
}

/** Adds table `name` with the given columns to a connection. */
export async function duckdbAddTable(
  conn: DuckDBConnection,
  name: string,
  columns: Record<string, unknown[]>,
  dtypes: Record<string, DType>,
): Promise<void> {
  const names = Object.keys(columns);
  const ddl = names.map((n) => `"${n}" ${SQL_TYPES[dtypes[n] as DType]}`).join(", ");
  await conn.run(`CREATE TABLE ${name} (${ddl})`);
  const ap = await conn.createAppender(name);
  const rows = names.length ? (columns[names[0] as string] as unknown[]).length : 0;
  for (let i = 0; i < rows; i++) {
    for (const n of names) append(ap, dtypes[n] as DType, (columns[n] as unknown[])[i]);
    ap.endRow();
  }
  ap.flushSync();
  ap.closeSync();
}

/** Rows of a query as JS objects (BIGINT as bigint, DOUBLE as number, NULL as null). */
export async function duckdbRows(conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  const reader = await conn.runAndReadAll(sql);
  return reader.getRowObjectsJS() as Record<string, unknown>[];
}
