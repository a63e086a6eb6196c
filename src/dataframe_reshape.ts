/**
 * DataFrame.pivot and DataFrame.transpose (the reshapes outside the shared verb list; unpivot is
 * on the class), installed on the prototype by declaration merging. The work is in
 * src/ops/pivot.ts and src/ops/reshape.ts.
 */
import { DataFrame, frameFromColumns, framePartsOf } from "./dataframe.js";
import type { FrameParts } from "./ops/frame.js";
import { pivot, type PivotOptions } from "./ops/pivot.js";
import { transpose, type TransposeOptions } from "./ops/reshape.js";

declare module "./dataframe.js" {
  interface DataFrame {
    /**
     * Long to wide (Polars' pivot): one row per distinct `index` value(s), one column per distinct
     * value of `on` (in order of first appearance, named by the value's text; with several
     * `values` columns, "{value}_{on value}"), each cell the `aggregateFunction` of the rows with
     * that pair (null where there are none). Without an aggregateFunction a pair with more than
     * one row is an InvalidArgumentError.
     *
     * @example
     * df.pivot({ on: "subject", index: "name", values: "score", aggregateFunction: "max" });
     */
    pivot(options: PivotOptions): DataFrame;

    /**
     * Rows as columns: row j becomes column j ("column_j", or `columnNames`), every value cast to
     * the columns' common supertype (else DtypeError). `includeHeader` adds the column names as a
     * first column (`headerName`, default "column").
     *
     * @example
     * new DataFrame({ a: [1, 2], b: [3, 4] }).transpose({ includeHeader: true }).toRecords();
     * // [{ column: "a", column_0: 1, column_1: 2 }, { column: "b", column_0: 3, column_1: 4 }]
     */
    transpose(options?: TransposeOptions): DataFrame;
  }
}

/** A frame's parts as the verb modules in src/ops/ take them (borrowed). */
function partsOf(df: DataFrame): FrameParts {
  const p = framePartsOf(df);
  return { names: p.names, columns: p.handles, height: p.height };
}

const methods = {
  pivot(this: DataFrame, options: PivotOptions): DataFrame {
    const r = pivot(partsOf(this), options, (keys, exprs) => {
      const cells = this.groupBy(keys, { maintainOrder: true }).agg(exprs);
      return { parts: partsOf(cells), release: () => cells.dispose() };
    });
    return frameFromColumns(r.names, r.columns);
  },
  transpose(this: DataFrame, options?: TransposeOptions): DataFrame {
    const r = transpose(partsOf(this), options);
    return frameFromColumns(r.names, r.columns);
  },
};
for (const [name, fn] of Object.entries(methods)) {
  Object.defineProperty(DataFrame.prototype, name, { value: fn, writable: true, configurable: true });
}
