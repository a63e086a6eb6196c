// gpudf, from the built package (dist/index.js), on the device GPUDF_DEVICE names.
//
// Tables are loaded with gpudf.readCSV (types inferred), timed as the CSV load like the other
// engines'. Each question is written against the API (DataFrame.groupBy(...).agg(col(...)...),
// join, sort, filter, unique, readCSV, writeCSV) and runs only when the methods it needs exist;
// otherwise it is reported "unsupported" with the missing method named. Nothing is emulated in
// JS. A build without readCSV loads the generated Arrow IPC file instead (apache-arrow ->
// fromArrow) and reports its CSV load "unsupported".
import { readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as arrow from 'apache-arrow';
import { Unsupported } from '../lib/unsupported.mjs';
import { checksumOf, isTpchData } from '../lib/questions.mjs';
import { QUERIES as TPCH, answerOf } from '../tpch/answers.mjs';
import { TABLE_NAMES, gpudfDtypes } from '../tpch/schema.mjs';
import { OPS_TABLES, Q1_SHIPDATE, stringsSummary } from '../tpch/ops.mjs';

const gpudf = await import(new URL('../../dist/index.js', import.meta.url));
const { col } = gpudf;

/** Throws Unsupported unless every named capability exists. */
function need(df, ...names) {
  for (const n of names) {
    const ok = n === 'col' ? typeof col === 'function'
      : n === 'readCSV' ? typeof gpudf.readCSV === 'function'
        : typeof df?.[n] === 'function';
    if (!ok) throw new Unsupported(`gpudf has no ${n === 'col' || n === 'readCSV' ? n : `DataFrame.${n}`} yet`);
  }
}

async function readArrow(path) {
  // readFileSync is limited to 2 GiB: larger files are read batch by batch.
  if (statSync(path).size < 2 ** 31 - 1) return arrow.tableFromIPC(readFileSync(path));
  const handle = await open(path);
  const reader = await arrow.RecordBatchReader.from(handle);
  const batches = [];
  for await (const b of reader) batches.push(b);
  await handle.close();
  return new arrow.Table(batches);
}

// TPC-H: the queries of examples/tpch/eager.ts, loaded through tsx (their "gpudf" import
// resolves to this package's dist/, the module this file uses).
let tpchQueries = null;

const loadFrame = async (path) => gpudf.fromArrow(await readArrow(path));
const gb = (keys, aggs) => ({ x }) => { need(x, 'groupBy'); need(null, 'col'); return x.groupBy(keys).agg(...aggs()); };
const jn = (right, on, how = 'inner') => (ctx) => { need(ctx.x, 'join'); return ctx.x.join(ctx[right], { on, how }); };

export default {
  name: 'gpudf',
  version() {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url)));
    const d = gpudf.device();
    return `gpudf ${pkg.version} (${d.name})`;
  },
  async prepare(suite) {
    if (suite !== 'tpch') return;
    const { register } = await import('tsx/esm/api');
    register({ tsconfig: false });
    tpchQueries = (await import('../../examples/tpch/eager.ts')).QUERIES;
  },
  async load(suite, dataset) {
    const t = dataset.tables;
    if (isTpchData(suite)) {
      const tables = {};
      for (const name of suite === 'tpch' ? TABLE_NAMES : OPS_TABLES) {
        tables[name] = dataset.format === 'csv'
          ? await gpudf.readCSV(t[name].csv, { dtypes: gpudfDtypes(name) }) : await gpudf.readParquet(t[name].parquet);
      }
      return { suite, sf: dataset.sf, csvLoad: dataset.format, tables };
    }
    const ctx = { csvLoad: typeof gpudf.readCSV === 'function' ? 'csv' : 'unsupported', csvPath: t.x.csv };
    if (ctx.csvLoad === 'csv') {
      for (const role of Object.keys(t)) ctx[role] = await gpudf.readCSV(t[role].csv);
      return ctx;
    }
    ctx.note = 'loaded from the Arrow IPC file (gpudf has no readCSV yet)';
    for (const role of Object.keys(t)) ctx[role] = await loadFrame(t[role].arrow);
    return ctx;
  },
  check(ans, measures, ctx) {
    if (ans === null) return { rows: null, chk: [] };
    if (ctx?.suite === 'tpch') {
      const answer = answerOf(ans.columns, ans.toRecords());
      return { rows: answer.rows.length, chk: [], answer };
    }
    const rows = ans.height ?? ans.shape?.[0] ?? ans.numRows;
    return {
      rows,
      chk: checksumOf(measures, rows, (name, at) => {
        const values = ans.getColumn(name).toArray();
        return at === null ? values : values[at];
      }),
    };
  },
  release(ans) {
    ans?.dispose?.(); // answers only: no question returns a loaded frame
  },
  questions: {
    groupby: {
      q1: gb(['id1'], () => [col('v1').sum().alias('v1')]),
      q2: gb(['id1', 'id2'], () => [col('v1').sum().alias('v1')]),
      q3: gb(['id3'], () => [col('v1').sum().alias('v1'), col('v3').mean().alias('v3')]),
      q4: gb(['id4'], () => [col('v1').mean().alias('v1'), col('v2').mean().alias('v2'), col('v3').mean().alias('v3')]),
      q5: gb(['id6'], () => [col('v1').sum().alias('v1'), col('v2').sum().alias('v2'), col('v3').sum().alias('v3')]),
      q6: gb(['id4', 'id5'], () => [col('v3').median().alias('median_v3'), col('v3').std().alias('sd_v3')]),
      q7: gb(['id3'], () => [col('v1').max().sub(col('v2').min()).alias('range_v1_v2')]),
      // q8-q10 as examples/db-benchmark/groupby.ts writes them (kept identical in meaning: plain
      // node cannot import the TypeScript example).
      q8: ({ x }) => {
        need(x, 'select', 'filter', 'groupBy', 'topK'); need(null, 'col');
        const needed = x.select(col('id6'), col('v3').alias('largest2_v3'));
        const present = needed.filter(col('largest2_v3').isNotNull());
        const answer = present.groupBy('id6').topK(2, 'largest2_v3');
        for (const f of [needed, present]) f.dispose();
        return answer;
      },
      q9: gb(['id2', 'id4'], () => [gpudf.corr('v1', 'v2').pow(2).alias('r2')]),
      q10: gb(['id1', 'id2', 'id3', 'id4', 'id5', 'id6'], () => [col('v3').sum().alias('v3'), gpudf.len().alias('count')]),
    },
    // The same questions as examples/db-benchmark/join.ts (tested against DuckDB); kept inline
    // because the bench runs plain node on dist/, which does not include the TS examples.
    join: {
      q1: jn('small', 'id1'),
      q2: jn('medium', 'id2'),
      q3: jn('medium', 'id2', 'left'),
      q4: jn('medium', 'id5'),
      q5: jn('big', 'id3'),
    },
    tpch: Object.fromEntries(TPCH.map(({ id }) => [id, (ctx) => tpchQueries[id](ctx.tables, ctx.sf)])),
    'tpch-ops': {
      groupby_orderkey: ({ tables: { lineitem } }) => lineitem.groupBy('l_orderkey')
        .agg(col('l_quantity').sum().alias('sum_qty'), gpudf.len().alias('n')),
      nunique_suppkey: ({ tables: { lineitem } }) => lineitem.groupBy('l_orderkey').agg(col('l_suppkey').nUnique().alias('n_supp')),
      groupby_partsupp: ({ tables: { lineitem } }) => lineitem.groupBy(['l_partkey', 'l_suppkey'])
        .agg(col('l_quantity').sum().alias('sum_qty'), gpudf.len().alias('n')),
      filter_utf8: ({ tables: { lineitem } }) => {
        const two = lineitem.select('l_quantity', 'l_comment');
        const out = two.filter(col('l_quantity').lte(48));
        two.dispose();
        return out;
      },
      filter_wide: ({ tables: { lineitem } }) => lineitem.filter(col('l_shipdate').lte(gpudf.lit(new Date(`${Q1_SHIPDATE}T00:00:00Z`), 'date32'))),
      strings_to_js: ({ tables: { orders } }) => {
        const s = orders.getColumn('o_comment');
        const summary = stringsSummary(s.toArray());
        s.dispose();
        return new gpudf.DataFrame({ n: [summary.n], chars: [summary.chars] });
      },
    },
    micro: {
      sort_int64: ({ x }) => { need(x, 'sort'); return x.sort(['k']); },
      sort_multi: ({ x }) => { need(x, 'sort'); return x.sort(['s', 'f']); },
      filter: ({ x }) => { need(x, 'filter'); need(null, 'col'); return x.filter(col('a').gt(0).and(col('s').eq('x'))); },
      unique: ({ x }) => { need(x, 'unique'); return x.unique({ subset: ['s', 'a'] }); },
      csv_read: ({ csvPath }) => { need(null, 'readCSV'); return gpudf.readCSV(csvPath); },
      csv_write: async ({ x }) => {
        need(x, 'writeCSV');
        await x.writeCSV(join(tmpdir(), `gpudf-bench-gpudf-${process.pid}.csv`));
        return null;
      },
    },
  },
};
