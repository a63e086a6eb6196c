// nodejs-polars: the db-benchmark's polars solution (lazy group_by / join, collected), in the
// Node API. Differences from the Python script: the answer is collected from an eager frame's
// lazy() (the script memory-maps an IPC copy first); v1/v2 of the join tables are Float64 (the
// script reads Float32); the join's string ids stay Utf8 (categoricals need a global string
// cache to be joined); "largest two" is sort-descending + head(2) (nodejs-polars has no top_k).
import pl from 'nodejs-polars';
import { unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isTpchData, parseMeasure, pickIndex, toNumber } from '../lib/questions.mjs';
import { QUERIES as TPCH, answerOf } from '../tpch/answers.mjs';
import { POLARS as TPCH_POLARS } from '../tpch/queries/polars.mjs';
import { TABLE_NAMES, polarsDtypes } from '../tpch/schema.mjs';
import { OPS_TABLES, Q1_SHIPDATE, stringsSummary } from '../tpch/ops.mjs';

const GROUPBY_DTYPES = { id4: pl.Int32, id5: pl.Int32, id6: pl.Int32, v1: pl.Int32, v2: pl.Int32, v3: pl.Float64 };
const JOIN_DTYPES = { id1: pl.Int32, id2: pl.Int32, id3: pl.Int32, v1: pl.Float64, v2: pl.Float64 };
const MICRO_DTYPES = { k: pl.Int64, s: pl.Utf8, f: pl.Float64, a: pl.Int32 };

const { col } = pl;
const lazy = (build) => (ctx) => build(ctx).collectSync();

export default {
  name: 'polars',
  version: () => `nodejs-polars ${pl.version ?? ''}`.trim(),
  async load(suite, dataset) {
    const t = dataset.tables;
    if (isTpchData(suite)) {
      // Read into DataFrames; each query starts from their .lazy().
      const read = (name) => (dataset.format === 'csv'
        ? pl.readCSV(t[name].csv, { dtypes: polarsDtypes(pl, name), quoteChar: '"', rechunk: true })
        : pl.readParquet(t[name].parquet));
      return { suite, sf: dataset.sf, csvLoad: dataset.format, tables: Object.fromEntries((suite === 'tpch' ? TABLE_NAMES : OPS_TABLES).map((n) => [n, read(n)])) };
    }
    if (suite === 'groupby') {
      const x = pl.readCSV(t.x.csv, { dtypes: GROUPBY_DTYPES, rechunk: true })
        .withColumns(col(['id1', 'id2', 'id3']).cast(pl.Categorical));
      return { x };
    }
    if (suite === 'micro') return { x: pl.readCSV(t.x.csv, { dtypes: MICRO_DTYPES }), csvPath: t.x.csv };
    const read = (role) => pl.readCSV(t[role].csv, { dtypes: JOIN_DTYPES, rechunk: true });
    return { x: read('x'), small: read('small'), medium: read('medium'), big: read('big') };
  },
  check(ans, measures, ctx) {
    if (ctx?.suite === 'tpch') {
      // 64-bit integers through Float64 (0.25.2 reads Int64 values through 32 bits, see above).
      const wide = ans.columns.filter((c) => [pl.Int64, pl.UInt64].some((d) => ans.getColumn(c).dtype.equals(d)));
      const plain = wide.length ? ans.withColumns(...wide.map((c) => col(c).cast(pl.Float64))) : ans;
      const answer = answerOf(ans.columns, plain.toRecords());
      return { rows: answer.rows.length, chk: [], answer };
    }
    const rows = ans.height;
    const chk = measures.map((m) => {
      const { column, pick } = parseMeasure(m);
      if (rows === 0) return null;
      // Cast first: nodejs-polars 0.25.2 Series.get() truncates Int64 values to 32 bits.
      if (pick) return toNumber(ans.getColumn(column).cast(pl.Float64).get(pickIndex(pick, rows)));
      return toNumber(ans.select(col(column).cast(pl.Float64).sum()).getColumn(column).get(0));
    });
    return { rows, chk };
  },
  questions: {
    groupby: {
      q1: lazy(({ x }) => x.lazy().groupBy('id1').agg(col('v1').sum().alias('v1'))),
      q2: lazy(({ x }) => x.lazy().groupBy(['id1', 'id2']).agg(col('v1').sum().alias('v1'))),
      q3: lazy(({ x }) => x.lazy().groupBy('id3').agg(col('v1').sum().alias('v1'), col('v3').mean().alias('v3'))),
      q4: lazy(({ x }) => x.lazy().groupBy('id4').agg(col('v1').mean().alias('v1'), col('v2').mean().alias('v2'), col('v3').mean().alias('v3'))),
      q5: lazy(({ x }) => x.lazy().groupBy('id6').agg(col('v1').sum().alias('v1'), col('v2').sum().alias('v2'), col('v3').sum().alias('v3'))),
      q6: lazy(({ x }) => x.lazy().groupBy(['id4', 'id5']).agg(col('v3').median().alias('median_v3'), col('v3').std().alias('sd_v3'))),
      q7: lazy(({ x }) => x.lazy().groupBy('id3').agg(col('v1').max().minus(col('v2').min()).alias('range_v1_v2'))),
      q8: lazy(({ x }) => x.lazy().dropNulls('v3').groupBy('id6')
        .agg(col('v3').sort({ descending: true }).head(2).alias('largest2_v3')).explode('largest2_v3')),
      q9: lazy(({ x }) => x.lazy().groupBy(['id2', 'id4']).agg(pl.pearsonCorr('v1', 'v2').pow(2).alias('r2'))),
      q10: lazy(({ x }) => x.lazy().groupBy(['id1', 'id2', 'id3', 'id4', 'id5', 'id6'])
        .agg(col('v3').sum().alias('v3'), pl.len().alias('count'))),
    },
    join: {
      q1: lazy(({ x, small }) => x.lazy().join(small.lazy(), { on: 'id1' })),
      q2: lazy(({ x, medium }) => x.lazy().join(medium.lazy(), { on: 'id2' })),
      q3: lazy(({ x, medium }) => x.lazy().join(medium.lazy(), { on: 'id2', how: 'left' })),
      q4: lazy(({ x, medium }) => x.lazy().join(medium.lazy(), { on: 'id5' })),
      q5: lazy(({ x, big }) => x.lazy().join(big.lazy(), { on: 'id3' })),
    },
    tpch: Object.fromEntries(TPCH.map(({ id }) => [id, (ctx) => TPCH_POLARS[id](ctx.tables, ctx.sf).collectSync()])),
    'tpch-ops': {
      groupby_orderkey: lazy(({ tables: { lineitem } }) => lineitem.lazy().groupBy('l_orderkey')
        .agg(col('l_quantity').sum().alias('sum_qty'), pl.len().alias('n'))),
      nunique_suppkey: lazy(({ tables: { lineitem } }) => lineitem.lazy().groupBy('l_orderkey').agg(col('l_suppkey').nUnique().alias('n_supp'))),
      groupby_partsupp: lazy(({ tables: { lineitem } }) => lineitem.lazy().groupBy(['l_partkey', 'l_suppkey'])
        .agg(col('l_quantity').sum().alias('sum_qty'), pl.len().alias('n'))),
      filter_utf8: ({ tables: { lineitem } }) => lineitem.select('l_quantity', 'l_comment').filter(col('l_quantity').ltEq(48)),
      filter_wide: ({ tables: { lineitem } }) => lineitem.filter(col('l_shipdate').ltEq(pl.lit(new Date(`${Q1_SHIPDATE}T00:00:00Z`)).cast(pl.Date))),
      strings_to_js: ({ tables: { orders } }) => {
        const summary = stringsSummary(orders.getColumn('o_comment').toArray());
        return pl.DataFrame({ n: [summary.n], chars: [summary.chars] });
      },
    },
    micro: {
      sort_int64: ({ x }) => x.sort('k'),
      sort_multi: ({ x }) => x.sort(['s', 'f']),
      filter: ({ x }) => x.filter(col('a').gt(0).and(col('s').eq(pl.lit('x')))),
      unique: ({ x }) => x.unique({ subset: ['s', 'a'] }),
      csv_read: ({ csvPath }) => pl.readCSV(csvPath, { dtypes: MICRO_DTYPES }),
      csv_write: ({ x }) => {
        const path = join(tmpdir(), `gpudf-bench-polars-${process.pid}.csv`);
        x.writeCSV(path);
        unlinkSync(path);
        return x;
      },
    },
  },
};
