// DuckDB (@duckdb/node-api): the db-benchmark's DuckDB SQL, one in-memory database per process.
// Each answer is materialised as a table (CREATE TABLE ans AS ...), as the benchmark does, and
// the checksum is computed by SQL over it. Differences from the benchmark's script: v3 is DOUBLE
// (the benchmark reads FLOAT), and string ids stay VARCHAR (it converts some to ENUM at load).
import { DuckDBInstance } from '@duckdb/node-api';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isTpchData, parseMeasure } from '../lib/questions.mjs';
import { QUERIES as TPCH, answerOf } from '../tpch/answers.mjs';
import { SQL as TPCH_SQL } from '../tpch/queries/sql.mjs';
import { TABLE_NAMES, duckdbColumns } from '../tpch/schema.mjs';
import { OPS_TABLES, Q1_SHIPDATE, stringsSummary } from '../tpch/ops.mjs';

const GROUPBY_TYPES = `{'id1':'VARCHAR','id2':'VARCHAR','id3':'VARCHAR','id4':'INTEGER','id5':'INTEGER','id6':'INTEGER','v1':'INTEGER','v2':'INTEGER','v3':'DOUBLE'}`;
const JOIN_TYPES = {
  x: `{'id1':'BIGINT','id2':'BIGINT','id3':'BIGINT','id4':'VARCHAR','id5':'VARCHAR','id6':'VARCHAR','v1':'DOUBLE'}`,
  small: `{'id1':'BIGINT','id4':'VARCHAR','v2':'DOUBLE'}`,
  medium: `{'id1':'BIGINT','id2':'BIGINT','id4':'VARCHAR','id5':'VARCHAR','v2':'DOUBLE'}`,
  big: `{'id1':'BIGINT','id2':'BIGINT','id3':'BIGINT','id4':'VARCHAR','id5':'VARCHAR','id6':'VARCHAR','v2':'DOUBLE'}`,
};
const MICRO_TYPES = `{'k':'BIGINT','s':'VARCHAR','f':'DOUBLE','a':'INTEGER'}`;

const readCsv = (path, types) => `read_csv('${path}', header = true, columns = ${types})`;
const num = (v) => (v === null ? null : typeof v === 'bigint' ? Number(v) : typeof v === 'object' ? Number(v.toDouble?.() ?? v) : v);

async function scalarRow(con, sql) {
  const r = await con.runAndReadAll(sql);
  return r.getRows()[0].map(num);
}

const ctas = (sql) => async (ctx) => {
  await ctx.con.run(`CREATE OR REPLACE TABLE ans AS ${sql}`);
  return 'ans';
};

export default {
  name: 'duckdb',
  async version() {
    const i = await DuckDBInstance.create(':memory:');
    const c = await i.connect();
    return (await c.runAndReadAll('SELECT version()')).getRows()[0][0];
  },
  async load(suite, dataset) {
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const t = dataset.tables;
    if (isTpchData(suite)) {
      // Every table into memory first, as the other engines hold theirs.
      for (const name of suite === 'tpch' ? TABLE_NAMES : OPS_TABLES) {
        const f = t[name];
        const from = dataset.format === 'csv'
          ? `read_csv('${f.csv}', header = true, delim = ',', quote = '"', columns = ${duckdbColumns(name)})` : `read_parquet('${f.parquet}')`;
        await con.run(`CREATE TABLE ${name} AS SELECT * FROM ${from}`);
      }
      return { db, con, suite, sf: dataset.sf, csvLoad: dataset.format };
    }
    if (suite === 'groupby') await con.run(`CREATE TABLE x AS SELECT * FROM ${readCsv(t.x.csv, GROUPBY_TYPES)}`);
    if (suite === 'micro') await con.run(`CREATE TABLE x AS SELECT * FROM ${readCsv(t.x.csv, MICRO_TYPES)}`);
    if (suite === 'join') {
      for (const role of ['x', 'small', 'medium', 'big']) await con.run(`CREATE TABLE ${role} AS SELECT * FROM ${readCsv(t[role].csv, JOIN_TYPES[role])}`);
    }
    return { db, con, csvPath: t.x.csv };
  },
  async check(table, measures, ctx) {
    if (ctx.suite === 'tpch') {  // `table` is the query's result reader
      const answer = answerOf(table.columnNames(), table.getRowObjectsJS());
      return { rows: answer.rows.length, chk: [], answer };
    }
    const [rows] = await scalarRow(ctx.con, `SELECT count(*) FROM ${table}`);
    if (measures.length === 0) return { rows, chk: [] };
    const exprs = measures.map((m) => {
      const { column, pick } = parseMeasure(m);
      if (!pick) return `sum(${column})::DOUBLE`;
      const at = pick === 'first' ? 0 : pick === 'mid' ? Math.floor(rows / 2) : rows - 1;
      return `(SELECT ${column} FROM ${table} LIMIT 1 OFFSET ${at})::DOUBLE`;
    });
    return { rows, chk: rows === 0 ? measures.map(() => null) : await scalarRow(ctx.con, `SELECT ${exprs.join(', ')} FROM ${table}`) };
  },
  async release(table, ctx) {},
  questions: {
    groupby: {
      q1: ctas('SELECT id1, sum(v1) AS v1 FROM x GROUP BY id1'),
      q2: ctas('SELECT id1, id2, sum(v1) AS v1 FROM x GROUP BY id1, id2'),
      q3: ctas('SELECT id3, sum(v1) AS v1, avg(v3) AS v3 FROM x GROUP BY id3'),
      q4: ctas('SELECT id4, avg(v1) AS v1, avg(v2) AS v2, avg(v3) AS v3 FROM x GROUP BY id4'),
      q5: ctas('SELECT id6, sum(v1) AS v1, sum(v2) AS v2, sum(v3) AS v3 FROM x GROUP BY id6'),
      q6: ctas('SELECT id4, id5, quantile_cont(v3, 0.5) AS median_v3, stddev(v3) AS sd_v3 FROM x GROUP BY id4, id5'),
      q7: ctas('SELECT id3, max(v1) - min(v2) AS range_v1_v2 FROM x GROUP BY id3'),
      q8: ctas('SELECT id6, unnest(max(v3, 2)) AS largest2_v3 FROM x WHERE v3 IS NOT NULL GROUP BY id6'),
      q9: ctas('SELECT id2, id4, pow(corr(v1, v2), 2) AS r2 FROM x GROUP BY id2, id4'),
      q10: ctas('SELECT id1, id2, id3, id4, id5, id6, sum(v3) AS v3, count(*) AS count FROM x GROUP BY id1, id2, id3, id4, id5, id6'),
    },
    join: {
      q1: ctas('SELECT x.*, small.id4 AS small_id4, v2 FROM x JOIN small USING (id1)'),
      q2: ctas('SELECT x.*, medium.id1 AS medium_id1, medium.id4 AS medium_id4, medium.id5 AS medium_id5, v2 FROM x JOIN medium USING (id2)'),
      q3: ctas('SELECT x.*, medium.id1 AS medium_id1, medium.id4 AS medium_id4, medium.id5 AS medium_id5, v2 FROM x LEFT JOIN medium USING (id2)'),
      q4: ctas('SELECT x.*, medium.id1 AS medium_id1, medium.id2 AS medium_id2, medium.id4 AS medium_id4, v2 FROM x JOIN medium USING (id5)'),
      q5: ctas('SELECT x.*, big.id1 AS big_id1, big.id2 AS big_id2, big.id4 AS big_id4, big.id5 AS big_id5, big.id6 AS big_id6, v2 FROM x JOIN big USING (id3)'),
    },
    // The TPC-H SQL, its answer read into JS inside the timed run.
    tpch: Object.fromEntries(TPCH.map(({ id }) => [id, (ctx) => ctx.con.runAndReadAll(TPCH_SQL[id](ctx.sf))])),
    'tpch-ops': {
      groupby_orderkey: ctas('SELECT l_orderkey, sum(l_quantity) AS sum_qty, count(*) AS n FROM lineitem GROUP BY l_orderkey'),
      nunique_suppkey: ctas('SELECT l_orderkey, count(DISTINCT l_suppkey) AS n_supp FROM lineitem GROUP BY l_orderkey'),
      groupby_partsupp: ctas('SELECT l_partkey, l_suppkey, sum(l_quantity) AS sum_qty, count(*) AS n FROM lineitem GROUP BY l_partkey, l_suppkey'),
      filter_utf8: ctas('SELECT l_quantity, l_comment FROM lineitem WHERE l_quantity <= 48'),
      filter_wide: ctas(`SELECT * FROM lineitem WHERE l_shipdate <= DATE '${Q1_SHIPDATE}'`),
      strings_to_js: async (ctx) => {
        const reader = await ctx.con.runAndReadAll('SELECT o_comment FROM orders');
        const { n, chars } = stringsSummary(reader.getColumnsJS()[0]);
        return ctas(`SELECT ${n}::BIGINT AS n, ${chars}::BIGINT AS chars`)(ctx);
      },
    },
    micro: {
      sort_int64: ctas('SELECT * FROM x ORDER BY k'),
      sort_multi: ctas('SELECT * FROM x ORDER BY s, f'),
      filter: ctas(`SELECT * FROM x WHERE a > 0 AND s = 'x'`),
      unique: ctas('SELECT DISTINCT ON (s, a) * FROM x'),
      csv_read: (ctx) => ctas(`SELECT * FROM ${readCsv(ctx.csvPath, MICRO_TYPES)}`)(ctx),
      csv_write: async (ctx) => {
        await ctx.con.run(`COPY x TO '${join(tmpdir(), `gpudf-bench-duckdb-${process.pid}.csv`)}' (HEADER)`);
        return 'x';
      },
    },
  },
};
