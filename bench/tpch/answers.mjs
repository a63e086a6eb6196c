// TPC-H answers: the queries' names and ORDER BY columns, answers as plain rows, and their
// comparison with the reference (DuckDB's) answer:
//   - the same column names in the same order, and exactly the same number of rows;
//   - rows in the order the SQL fixes: the reference's rows are cut into runs of equal ORDER BY
//     values (the whole answer when there is no ORDER BY), and each run is compared as a
//     multiset (both sides sorted), since SQL leaves the order inside a run open;
//   - numbers equal within a relative tolerance of 1e-9 (engines add in different orders),
//     strings and dates (as YYYY-MM-DD) exactly, nulls only with nulls.

export const REL_TOL = 1e-9;

export const QUERIES = [
  ['q1', 'pricing summary report', ['l_returnflag', 'l_linestatus']],
  ['q2', 'minimum cost supplier', ['s_acctbal', 'n_name', 's_name', 'p_partkey']],
  ['q3', 'shipping priority', ['revenue', 'o_orderdate']],
  ['q4', 'order priority checking', ['o_orderpriority']],
  ['q5', 'local supplier volume', ['revenue']],
  ['q6', 'forecasting revenue change', []],
  ['q7', 'volume shipping', ['supp_nation', 'cust_nation', 'l_year']],
  ['q8', 'national market share', ['o_year']],
  ['q9', 'product type profit measure', ['nation', 'o_year']],
  ['q10', 'returned item reporting', ['revenue']],
  ['q11', 'important stock identification', ['value']],
  ['q12', 'shipping modes and order priority', ['l_shipmode']],
  ['q13', 'customer distribution', ['custdist', 'c_count']],
  ['q14', 'promotion effect', []],
  ['q15', 'top supplier', ['s_suppkey']],
  ['q16', 'parts/supplier relationship', ['supplier_cnt', 'p_brand', 'p_type', 'p_size']],
  ['q17', 'small-quantity-order revenue', []],
  ['q18', 'large volume customer', ['o_totalprice', 'o_orderdate']],
  ['q19', 'discounted revenue', []],
  ['q20', 'potential part promotion', ['s_name']],
  ['q21', 'suppliers who kept orders waiting', ['numwait', 's_name']],
  ['q22', 'global sales opportunity', ['cntrycode']],
].map(([id, label, order]) => ({ id, label, order, measures: [] }));

export const ORDER = Object.fromEntries(QUERIES.map((q) => [q.id, q.order]));

/** One value as the comparison sees it: numbers (bigints too), strings, dates as YYYY-MM-DD, null. */
export function plainValue(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return v;
}

/** An answer from row objects (every engine's rows carry the same keys in column order). */
export function answerOf(columns, records) {
  return { columns: [...columns], rows: records.map((r) => columns.map((c) => plainValue(r[c]))) };
}

const close = (a, b) => {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
    return Math.abs(a - b) <= REL_TOL * Math.max(1, Math.abs(a), Math.abs(b));
  }
  return a === b;
};
const cmp = (a, b) => {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
};
const rowCmp = (x, y) => {
  for (let i = 0; i < x.length; i++) {
    const c = cmp(x[i], y[i]);
    if (c !== 0) return c;
  }
  return 0;
};
const show = (row) => JSON.stringify(row);

/** null when `got` is `want` (see the rules above), else what differs. */
export function compareAnswers(got, want, order) {
  if (show(got.columns) !== show(want.columns)) return `columns ${show(got.columns)}, expected ${show(want.columns)}`;
  if (got.rows.length !== want.rows.length) return `${got.rows.length} rows, expected ${want.rows.length}`;
  const keys = order.map((c) => want.columns.indexOf(c));
  const n = want.rows.length;
  for (let a = 0; a < n;) {
    let b = a + 1;
    while (b < n && keys.length > 0 && keys.every((k) => want.rows[b][k] === want.rows[a][k])) b++;
    if (keys.length === 0) b = n;
    const g = got.rows.slice(a, b).sort(rowCmp), w = want.rows.slice(a, b).sort(rowCmp);
    for (let i = 0; i < w.length; i++) {
      if (!w[i].every((v, j) => close(g[i][j], v))) return `row ${a + i}${b - a > 1 ? ` (of rows ${a}..${b - 1}, compared sorted)` : ''}: ${show(g[i])}, expected ${show(w[i])}`;
    }
    a = b;
  }
  return null;
}
