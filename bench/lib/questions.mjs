// The questions of each suite, as the db-benchmark names them, and the answer columns whose sums
// make the checksum (db-benchmark: one sum per measure column, floats shown to 3 decimals).
// Engines name their answer columns as `measures` says, so checksums are comparable.
// tpch: the 22 TPC-H queries, whose whole answers are compared instead (bench/tpch/answers.mjs).
import { QUERIES as TPCH_QUERIES } from '../tpch/answers.mjs';
import { OPS_QUESTIONS } from '../tpch/ops.mjs';

export const SUITES = {
  groupby: [
    { id: 'q1', label: 'sum v1 by id1', measures: ['v1'] },
    { id: 'q2', label: 'sum v1 by id1:id2', measures: ['v1'] },
    { id: 'q3', label: 'sum v1 mean v3 by id3', measures: ['v1', 'v3'] },
    { id: 'q4', label: 'mean v1:v3 by id4', measures: ['v1', 'v2', 'v3'] },
    { id: 'q5', label: 'sum v1:v3 by id6', measures: ['v1', 'v2', 'v3'] },
    { id: 'q6', label: 'median v3 sd v3 by id4 id5', measures: ['median_v3', 'sd_v3'] },
    { id: 'q7', label: 'max v1 - min v2 by id3', measures: ['range_v1_v2'] },
    { id: 'q8', label: 'largest two v3 by id6', measures: ['largest2_v3'] },
    { id: 'q9', label: 'regression v1 v2 by id2 id4', measures: ['r2'] },
    { id: 'q10', label: 'sum v3 count by id1:id6', measures: ['v3', 'count'] },
  ],
  join: [
    { id: 'q1', label: 'small inner on int', measures: ['v1', 'v2'] },
    { id: 'q2', label: 'medium inner on int', measures: ['v1', 'v2'] },
    { id: 'q3', label: 'medium outer on int', measures: ['v1', 'v2'] },
    { id: 'q4', label: 'medium inner on factor', measures: ['v1', 'v2'] },
    { id: 'q5', label: 'big inner on int', measures: ['v1', 'v2'] },
  ],
  // micro: checksums are picks rather than sums where order is the point (a sort).
  micro: [
    { id: 'sort_int64', label: 'sort by k (int64)', measures: ['k@first', 'k@mid', 'k@last'] },
    { id: 'sort_multi', label: 'sort by s (utf8), f (float64)', measures: ['f@first', 'f@mid', 'f@last'] },
    { id: 'filter', label: 'filter a > 0 and s == "x"', measures: ['f'] },
    { id: 'unique', label: 'unique on (s, a)', measures: [] },
    { id: 'csv_read', label: 'read CSV', measures: ['a'] },
    { id: 'csv_write', label: 'write CSV', measures: [] },
  ],
  tpch: TPCH_QUERIES,
  // tpch-ops: single operations over the TPC-H tables (bench/tpch/ops.mjs), checked by checksum.
  'tpch-ops': OPS_QUESTIONS,
};

/** Suites that run over the generated TPC-H tables. */
export const isTpchData = (suite) => suite === 'tpch' || suite === 'tpch-ops';

/** "f@mid" -> { column: 'f', pick: 'mid' }; "v1" -> { column: 'v1', pick: null } (a sum). */
export function parseMeasure(m) {
  const [column, pick = null] = m.split('@');
  return { column, pick };
}

/** Row index of a pick in a frame of n rows. */
export const pickIndex = (pick, n) => (pick === 'first' ? 0 : pick === 'mid' ? Math.floor(n / 2) : n - 1);

/** Checksum over plain JS column values (engines without a query language use this). */
export function checksumOf(measures, rows, column) {
  return measures.map((m) => {
    const { column: name, pick } = parseMeasure(m);
    if (rows === 0) return null;
    if (pick) return toNumber(column(name, pickIndex(pick, rows)));
    let s = 0;
    for (const v of column(name, null)) if (v !== null && v !== undefined) s += toNumber(v);
    return s;
  });
}

export const toNumber = (v) => (typeof v === 'bigint' ? Number(v) : v === null || v === undefined ? null : Number(v));
