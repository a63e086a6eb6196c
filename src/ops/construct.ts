/**
 * Building frames: from an object of column values, from row objects, from an Arrow table.
 * Every path disposes what it made when it fails, so a bad input leaks nothing.
 */
import { columnFromArrow, isArrowTable } from "../arrow.js";
import { columnFromValues, type ColumnValues } from "../columns.js";
import { ensureDevice } from "../device.js";
import { InvalidArgumentError } from "../errors.js";
import type { ColumnHandle } from "../native/addon.js";
import { Series } from "../series.js";
import { checkUniqueNames, disposeOnError } from "./frame.js";

/** Names and owned handles of a new frame. */
export interface Built {
  names: string[];
  handles: ColumnHandle[];
}

/** `new DataFrame({...})`: JS values are inferred natively, typed arrays keep their type, a Series is shared. */
export function columnsFromObject(columns: Record<string, ColumnValues | Series>): Built {
  if (columns === null || typeof columns !== "object" || Array.isArray(columns)) {
    throw new InvalidArgumentError("new DataFrame() expects an object mapping names to column values");
  }
  const names = Object.keys(columns);
  const handles: ColumnHandle[] = [];
  return disposeOnError(handles, () => {
    for (const name of names) {
      const input = columns[name] as ColumnValues | Series;
      handles.push(input instanceof Series ? input.shareHandle() : columnFromValues(input));
    }
    if (new Set(handles.map((h) => h.length)).size > 1) {
      const detail = names.map((n, i) => `${n}: ${handles[i]?.length}`).join(", ");
      throw new InvalidArgumentError(`all columns must have the same length (${detail})`);
    }
    return { names, handles };
  });
}

/** Row objects -> column arrays; columns in order of first appearance, missing keys null. */
export function recordsToColumns(rows: readonly Record<string, unknown>[]): Record<string, unknown[]> {
  if (!Array.isArray(rows)) throw new InvalidArgumentError("fromRecords expects an array of objects");
  const names: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    if (row === null || typeof row !== "object") throw new InvalidArgumentError("fromRecords expects an array of objects");
    for (const key of Object.keys(row)) {
      if (!seen.has(key)) {
        seen.add(key);
        names.push(key);
      }
    }
  }
  // Own keys only, into a null-prototype object: "__proto__" and "constructor" are columns too.
  const columns = Object.create(null) as Record<string, unknown[]>;
  for (const name of names) columns[name] = rows.map((row) => (Object.hasOwn(row, name) ? row[name] : null));
  return columns;
}

/** An apache-arrow Table (any copy of the library, recognised by shape) -> native columns. */
export function columnsFromArrow(table: unknown): Built {
  if (!isArrowTable(table)) throw new InvalidArgumentError("fromArrow expects an apache-arrow Table");
  ensureDevice();
  const names: string[] = [];
  const handles: ColumnHandle[] = [];
  return disposeOnError(handles, () => {
    table.schema.fields.forEach((field, i) => {
      const vector = table.getChildAt(i);
      handles.push(columnFromArrow(field.type, vector ? vector.data : []).handle);
      names.push(field.name);
    });
    checkUniqueNames(names);
    return { names, handles };
  });
}
