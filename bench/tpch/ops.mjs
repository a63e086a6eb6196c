// The "tpch-ops" suite: single operations over the TPC-H tables that showed up as hot spots when
// the 22 queries were first written against gpudf, each timed alone in every engine (the same
// loaded tables as the tpch suite) and checked by checksum like the db-benchmark questions:
//   - grouping lineitem by l_orderkey (1.5 M groups per SF over 6 M rows), and a distinct count
//     per group (Q21's count(DISTINCT l_suppkey));
//   - grouping by two integer keys whose packed span (l_partkey × l_suppkey) is far beyond a
//     direct-index table (Q9/Q20's partsupp pairs);
//   - a filter keeping ~96% of a frame of one number and one utf8 column, and Q1's filter over all
//     16 lineitem columns (~98.6% kept): gather throughput;
//   - copying a 1.5 M-per-SF utf8 column (o_comment) into a JS array.
// Only lineitem and orders are loaded for it.

export const OPS_TABLES = ['lineitem', 'orders'];

/** Q1's ship-date bound: 1998-12-01 minus 90 days. */
export const Q1_SHIPDATE = '1998-09-02';

export const OPS_QUESTIONS = [
  ['groupby_orderkey', 'sum, count by l_orderkey', ['sum_qty', 'n']],
  ['nunique_suppkey', 'distinct l_suppkey by l_orderkey', ['n_supp']],
  ['groupby_partsupp', 'sum by l_partkey, l_suppkey', ['sum_qty', 'n']],
  ['filter_utf8', 'filter 96% of (l_quantity, l_comment)', ['l_quantity']],
  ['filter_wide', 'Q1 filter, all 16 lineitem columns', ['l_quantity', 'l_extendedprice']],
  ['strings_to_js', 'o_comment to a JS array', ['n', 'chars']],
].map(([id, label, measures]) => ({ id, label, measures }));

/** The checksum row of strings_to_js, computed the same way in every engine. */
export function stringsSummary(values) {
  let chars = 0;
  for (const v of values) if (typeof v === 'string') chars += v.length;
  return { n: values.length, chars };
}
