// The eight TPC-H tables (specification clause 1.4), in file column order, with the types the
// generated files carry: every key and integer column int32 (the largest, o_orderkey, stays
// below 2^31 up to SF 350: 4 x 1.5e6 x SF), money and quantities float64, dates date32, text
// utf8. One table of types for every engine: DuckDB SQL types, Polars dtypes, gpudf dtypes.

/** @type {Record<string, [string, 'int32' | 'float64' | 'date32' | 'utf8'][]>} */
export const TABLES = {
  region: [['r_regionkey', 'int32'], ['r_name', 'utf8'], ['r_comment', 'utf8']],
  nation: [['n_nationkey', 'int32'], ['n_name', 'utf8'], ['n_regionkey', 'int32'], ['n_comment', 'utf8']],
  part: [
    ['p_partkey', 'int32'], ['p_name', 'utf8'], ['p_mfgr', 'utf8'], ['p_brand', 'utf8'], ['p_type', 'utf8'],
    ['p_size', 'int32'], ['p_container', 'utf8'], ['p_retailprice', 'float64'], ['p_comment', 'utf8'],
  ],
  supplier: [
    ['s_suppkey', 'int32'], ['s_name', 'utf8'], ['s_address', 'utf8'], ['s_nationkey', 'int32'], ['s_phone', 'utf8'],
    ['s_acctbal', 'float64'], ['s_comment', 'utf8'],
  ],
  partsupp: [['ps_partkey', 'int32'], ['ps_suppkey', 'int32'], ['ps_availqty', 'int32'], ['ps_supplycost', 'float64'], ['ps_comment', 'utf8']],
  customer: [
    ['c_custkey', 'int32'], ['c_name', 'utf8'], ['c_address', 'utf8'], ['c_nationkey', 'int32'], ['c_phone', 'utf8'],
    ['c_acctbal', 'float64'], ['c_mktsegment', 'utf8'], ['c_comment', 'utf8'],
  ],
  orders: [
    ['o_orderkey', 'int32'], ['o_custkey', 'int32'], ['o_orderstatus', 'utf8'], ['o_totalprice', 'float64'], ['o_orderdate', 'date32'],
    ['o_orderpriority', 'utf8'], ['o_clerk', 'utf8'], ['o_shippriority', 'int32'], ['o_comment', 'utf8'],
  ],
  lineitem: [
    ['l_orderkey', 'int32'], ['l_partkey', 'int32'], ['l_suppkey', 'int32'], ['l_linenumber', 'int32'],
    ['l_quantity', 'float64'], ['l_extendedprice', 'float64'], ['l_discount', 'float64'], ['l_tax', 'float64'],
    ['l_returnflag', 'utf8'], ['l_linestatus', 'utf8'], ['l_shipdate', 'date32'], ['l_commitdate', 'date32'],
    ['l_receiptdate', 'date32'], ['l_shipinstruct', 'utf8'], ['l_shipmode', 'utf8'], ['l_comment', 'utf8'],
  ],
};

export const TABLE_NAMES = Object.keys(TABLES);

const SQL = { int32: 'INTEGER', float64: 'DOUBLE', date32: 'DATE', utf8: 'VARCHAR' };

/** DuckDB read_csv `columns = {...}` struct for a table. */
export const duckdbColumns = (table) => `{${TABLES[table].map(([n, t]) => `'${n}': '${SQL[t]}'`).join(', ')}}`;

/** gpudf readCSV `dtypes` for a table (by name). */
export const gpudfDtypes = (table) => Object.fromEntries(TABLES[table]);

/** Polars readCSV `dtypes` for a table, given the nodejs-polars module. */
export const polarsDtypes = (pl, table) => Object.fromEntries(TABLES[table].map(([n, t]) => [n, { int32: pl.Int32, float64: pl.Float64, date32: pl.Date, utf8: pl.Utf8 }[t]]));
