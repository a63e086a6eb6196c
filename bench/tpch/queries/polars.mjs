// The 22 TPC-H queries with nodejs-polars' lazy API, written the way Polars' PDS-H benchmark
// writes them (joins in the order of the SQL's FROM list, subqueries as joins, LIKE as
// str.contains / startsWith / endsWith), with the same validation parameters as sql.mjs.
// Each function takes the tables as eager DataFrames and returns a LazyFrame to collect.
import pl from 'nodejs-polars';

const { col, lit, len, when } = pl;
const date = (iso) => lit(new Date(`${iso}T00:00:00Z`)).cast(pl.Date); // a Date literal, as PDS-H's date(...)
const s = (v) => lit(v);
const rev = () => col('l_extendedprice').mul(lit(1).minus(col('l_discount')));
const between = (c, lo, hi) => col(c).gtEq(lo).and(col(c).ltEq(hi));
const inRange = (c, lo, hi) => col(c).gtEq(date(lo)).and(col(c).lt(date(hi)));
const lazy = (t) => new Proxy(t, { get: (o, k) => o[k].lazy() });

export const POLARS = {
  q1: (t) => lazy(t).lineitem.filter(col('l_shipdate').ltEq(date('1998-09-02')))
    .groupBy(['l_returnflag', 'l_linestatus'])
    .agg(col('l_quantity').sum().alias('sum_qty'), col('l_extendedprice').sum().alias('sum_base_price'),
      rev().sum().alias('sum_disc_price'), rev().mul(lit(1).plus(col('l_tax'))).sum().alias('sum_charge'),
      col('l_quantity').mean().alias('avg_qty'), col('l_extendedprice').mean().alias('avg_price'),
      col('l_discount').mean().alias('avg_disc'), len().alias('count_order'))
    .sort(['l_returnflag', 'l_linestatus']),
  q2: (t) => {
    const T = lazy(t);
    const europe = T.part.join(T.partsupp, { leftOn: 'p_partkey', rightOn: 'ps_partkey' })
      .join(T.supplier, { leftOn: 'ps_suppkey', rightOn: 's_suppkey' })
      .join(T.nation, { leftOn: 's_nationkey', rightOn: 'n_nationkey' })
      .join(T.region, { leftOn: 'n_regionkey', rightOn: 'r_regionkey' })
      .filter(col('r_name').eq(s('EUROPE')));
    const brass = europe.filter(col('p_size').eq(lit(15)).and(col('p_type').str.endsWith('BRASS')));
    return brass.join(europe.groupBy('p_partkey').agg(col('ps_supplycost').min().alias('min_cost')), { on: 'p_partkey' })
      .filter(col('ps_supplycost').eq(col('min_cost')))
      .select('s_acctbal', 's_name', 'n_name', 'p_partkey', 'p_mfgr', 's_address', 's_phone', 's_comment')
      .sort(['s_acctbal', 'n_name', 's_name', 'p_partkey'], [true, false, false, false]).head(100);
  },
  q3: (t) => {
    const T = lazy(t);
    return T.customer.filter(col('c_mktsegment').eq(s('BUILDING')))
      .join(T.orders, { leftOn: 'c_custkey', rightOn: 'o_custkey' })
      .join(T.lineitem, { leftOn: 'o_orderkey', rightOn: 'l_orderkey' })
      .filter(col('o_orderdate').lt(date('1995-03-15')).and(col('l_shipdate').gt(date('1995-03-15'))))
      .groupBy(['o_orderkey', 'o_orderdate', 'o_shippriority']).agg(rev().sum().alias('revenue'))
      .select(col('o_orderkey').alias('l_orderkey'), 'revenue', 'o_orderdate', 'o_shippriority')
      .sort(['revenue', 'o_orderdate'], [true, false]).head(10);
  },
  q4: (t) => {
    const T = lazy(t);
    const late = T.lineitem.filter(col('l_commitdate').lt(col('l_receiptdate')));
    return T.orders.filter(inRange('o_orderdate', '1993-07-01', '1993-10-01'))
      .join(late, { leftOn: 'o_orderkey', rightOn: 'l_orderkey', how: 'semi' })
      .groupBy('o_orderpriority').agg(len().alias('order_count')).sort('o_orderpriority');
  },
  q5: (t) => {
    const T = lazy(t);
    return T.region.join(T.nation, { leftOn: 'r_regionkey', rightOn: 'n_regionkey' })
      .join(T.customer, { leftOn: 'n_nationkey', rightOn: 'c_nationkey' })
      .join(T.orders, { leftOn: 'c_custkey', rightOn: 'o_custkey' })
      .join(T.lineitem, { leftOn: 'o_orderkey', rightOn: 'l_orderkey' })
      .join(T.supplier, { leftOn: ['l_suppkey', 'n_nationkey'], rightOn: ['s_suppkey', 's_nationkey'] })
      .filter(col('r_name').eq(s('ASIA')).and(inRange('o_orderdate', '1994-01-01', '1995-01-01')))
      .groupBy('n_name').agg(rev().sum().alias('revenue')).sort('revenue', true);
  },
  q6: (t) => lazy(t).lineitem
    .filter(inRange('l_shipdate', '1994-01-01', '1995-01-01').and(between('l_discount', 0.05, 0.07)).and(col('l_quantity').lt(24)))
    .select(col('l_extendedprice').mul(col('l_discount')).sum().alias('revenue')),
  q7: (t) => {
    const T = lazy(t);
    const n1 = T.nation.select(col('n_nationkey').alias('n1_key'), col('n_name').alias('supp_nation'));
    const n2 = T.nation.select(col('n_nationkey').alias('n2_key'), col('n_name').alias('cust_nation'));
    return T.supplier.join(T.lineitem, { leftOn: 's_suppkey', rightOn: 'l_suppkey' })
      .join(T.orders, { leftOn: 'l_orderkey', rightOn: 'o_orderkey' })
      .join(T.customer, { leftOn: 'o_custkey', rightOn: 'c_custkey' })
      .join(n1, { leftOn: 's_nationkey', rightOn: 'n1_key' })
      .join(n2, { leftOn: 'c_nationkey', rightOn: 'n2_key' })
      .filter(col('supp_nation').eq(s('FRANCE')).and(col('cust_nation').eq(s('GERMANY')))
        .or(col('supp_nation').eq(s('GERMANY')).and(col('cust_nation').eq(s('FRANCE')))))
      .filter(between('l_shipdate', date('1995-01-01'), date('1996-12-31')))
      .groupBy(['supp_nation', 'cust_nation', col('l_shipdate').dt.year().alias('l_year')])
      .agg(rev().sum().alias('revenue')).sort(['supp_nation', 'cust_nation', 'l_year']);
  },
  q8: (t) => {
    const T = lazy(t);
    const n1 = T.nation.select('n_nationkey', 'n_regionkey');
    const n2 = T.nation.select(col('n_nationkey').alias('n2_key'), col('n_name').alias('nation'));
    return T.part.join(T.lineitem, { leftOn: 'p_partkey', rightOn: 'l_partkey' })
      .join(T.supplier, { leftOn: 'l_suppkey', rightOn: 's_suppkey' })
      .join(T.orders, { leftOn: 'l_orderkey', rightOn: 'o_orderkey' })
      .join(T.customer, { leftOn: 'o_custkey', rightOn: 'c_custkey' })
      .join(n1, { leftOn: 'c_nationkey', rightOn: 'n_nationkey' })
      .join(n2, { leftOn: 's_nationkey', rightOn: 'n2_key' })
      .join(T.region, { leftOn: 'n_regionkey', rightOn: 'r_regionkey' })
      .filter(col('r_name').eq(s('AMERICA')).and(col('p_type').eq(s('ECONOMY ANODIZED STEEL')))
        .and(between('o_orderdate', date('1995-01-01'), date('1996-12-31'))))
      .withColumns(rev().alias('volume'))
      .groupBy(col('o_orderdate').dt.year().alias('o_year'))
      .agg(when(col('nation').eq(s('BRAZIL'))).then(col('volume')).otherwise(lit(0)).sum().divideBy(col('volume').sum()).alias('mkt_share'))
      .sort('o_year');
  },
  q9: (t) => {
    const T = lazy(t);
    return T.part.join(T.partsupp, { leftOn: 'p_partkey', rightOn: 'ps_partkey' })
      .join(T.supplier, { leftOn: 'ps_suppkey', rightOn: 's_suppkey' })
      .join(T.lineitem, { leftOn: ['p_partkey', 'ps_suppkey'], rightOn: ['l_partkey', 'l_suppkey'] })
      .join(T.orders, { leftOn: 'l_orderkey', rightOn: 'o_orderkey' })
      .join(T.nation, { leftOn: 's_nationkey', rightOn: 'n_nationkey' })
      .filter(col('p_name').str.contains('green', true))
      .groupBy([col('n_name').alias('nation'), col('o_orderdate').dt.year().alias('o_year')])
      .agg(rev().minus(col('ps_supplycost').mul(col('l_quantity'))).sum().alias('sum_profit'))
      .sort(['nation', 'o_year'], [false, true]);
  },
  q10: (t) => {
    const T = lazy(t);
    return T.customer.join(T.orders, { leftOn: 'c_custkey', rightOn: 'o_custkey' })
      .join(T.lineitem, { leftOn: 'o_orderkey', rightOn: 'l_orderkey' })
      .join(T.nation, { leftOn: 'c_nationkey', rightOn: 'n_nationkey' })
      .filter(inRange('o_orderdate', '1993-10-01', '1994-01-01').and(col('l_returnflag').eq(s('R'))))
      .groupBy(['c_custkey', 'c_name', 'c_acctbal', 'c_phone', 'n_name', 'c_address', 'c_comment'])
      .agg(rev().sum().alias('revenue'))
      .select('c_custkey', 'c_name', 'revenue', 'c_acctbal', 'n_name', 'c_address', 'c_phone', 'c_comment')
      .sort('revenue', true).head(20);
  },
  q11: (t, sf) => {
    const T = lazy(t);
    const german = T.partsupp.join(T.supplier, { leftOn: 'ps_suppkey', rightOn: 's_suppkey' })
      .join(T.nation, { leftOn: 's_nationkey', rightOn: 'n_nationkey' })
      .filter(col('n_name').eq(s('GERMANY')))
      .withColumns(col('ps_supplycost').mul(col('ps_availqty')).alias('value'));
    const threshold = german.select(col('value').sum().mul(lit(0.0001 / sf)).alias('threshold'));
    return german.groupBy('ps_partkey').agg(col('value').sum())
      .join(threshold, { how: 'cross' })
      .filter(col('value').gt(col('threshold')))
      .select('ps_partkey', 'value').sort('value', true);
  },
  q12: (t) => {
    const T = lazy(t);
    const high = col('o_orderpriority').eq(s('1-URGENT')).or(col('o_orderpriority').eq(s('2-HIGH')));
    return T.orders.join(T.lineitem, { leftOn: 'o_orderkey', rightOn: 'l_orderkey' })
      .filter(col('l_shipmode').isIn(['MAIL', 'SHIP']).and(col('l_commitdate').lt(col('l_receiptdate')))
        .and(col('l_shipdate').lt(col('l_commitdate'))).and(inRange('l_receiptdate', '1994-01-01', '1995-01-01')))
      .groupBy('l_shipmode')
      .agg(when(high).then(lit(1)).otherwise(lit(0)).sum().alias('high_line_count'),
        when(high.not()).then(lit(1)).otherwise(lit(0)).sum().alias('low_line_count'))
      .sort('l_shipmode');
  },
  q13: (t) => {
    const T = lazy(t);
    const orders = T.orders.filter(col('o_comment').str.contains('special.*requests').not());
    return T.customer.join(orders, { leftOn: 'c_custkey', rightOn: 'o_custkey', how: 'left' })
      .groupBy('c_custkey').agg(col('o_orderkey').count().alias('c_count'))
      .groupBy('c_count').agg(len().alias('custdist'))
      .sort(['custdist', 'c_count'], [true, true]);
  },
  q14: (t) => {
    const T = lazy(t);
    return T.lineitem.join(T.part, { leftOn: 'l_partkey', rightOn: 'p_partkey' })
      .filter(inRange('l_shipdate', '1995-09-01', '1995-10-01'))
      .select(lit(100).mul(when(col('p_type').str.startsWith('PROMO')).then(rev()).otherwise(lit(0)).sum())
        .divideBy(rev().sum()).alias('promo_revenue'));
  },
  q15: (t) => {
    const T = lazy(t);
    const revenue = T.lineitem.filter(inRange('l_shipdate', '1996-01-01', '1996-04-01'))
      .groupBy(col('l_suppkey').alias('supplier_no')).agg(rev().sum().alias('total_revenue'));
    return T.supplier.join(revenue, { leftOn: 's_suppkey', rightOn: 'supplier_no' })
      .filter(col('total_revenue').eq(col('total_revenue').max()))
      .select('s_suppkey', 's_name', 's_address', 's_phone', 'total_revenue').sort('s_suppkey');
  },
  q16: (t) => {
    const T = lazy(t);
    const complaints = T.supplier.filter(col('s_comment').str.contains('Customer.*Complaints')).select(col('s_suppkey'));
    return T.part.join(T.partsupp, { leftOn: 'p_partkey', rightOn: 'ps_partkey' })
      .filter(col('p_brand').neq(s('Brand#45')).and(col('p_type').str.startsWith('MEDIUM POLISHED').not())
        .and(col('p_size').isIn([49, 14, 23, 45, 19, 3, 36, 9])))
      .join(complaints, { leftOn: 'ps_suppkey', rightOn: 's_suppkey', how: 'anti' })
      .groupBy(['p_brand', 'p_type', 'p_size']).agg(col('ps_suppkey').nUnique().alias('supplier_cnt'))
      .sort(['supplier_cnt', 'p_brand', 'p_type', 'p_size'], [true, false, false, false]);
  },
  q17: (t) => {
    const T = lazy(t);
    const parts = T.part.filter(col('p_brand').eq(s('Brand#23')).and(col('p_container').eq(s('MED BOX'))));
    const lines = parts.join(T.lineitem, { leftOn: 'p_partkey', rightOn: 'l_partkey', how: 'left' });
    return lines.groupBy('p_partkey').agg(lit(0.2).mul(col('l_quantity').mean()).alias('avg_quantity'))
      .join(lines, { on: 'p_partkey' })
      .filter(col('l_quantity').lt(col('avg_quantity')))
      .select(col('l_extendedprice').sum().divideBy(lit(7.0)).alias('avg_yearly'));
  },
  q18: (t) => {
    const T = lazy(t);
    const big = T.lineitem.groupBy('l_orderkey').agg(col('l_quantity').sum().alias('sum_qty')).filter(col('sum_qty').gt(300));
    return T.orders.join(big, { leftOn: 'o_orderkey', rightOn: 'l_orderkey' })
      .join(T.customer, { leftOn: 'o_custkey', rightOn: 'c_custkey' })
      .select('c_name', col('o_custkey').alias('c_custkey'), 'o_orderkey', 'o_orderdate', 'o_totalprice', 'sum_qty')
      .sort(['o_totalprice', 'o_orderdate'], [true, false]).head(100);
  },
  q19: (t) => {
    const T = lazy(t);
    const arm = (brand, containers, lo, size) => col('p_brand').eq(s(brand)).and(col('p_container').isIn(containers))
      .and(between('l_quantity', lo, lo + 10)).and(between('p_size', 1, size));
    return T.part.join(T.lineitem, { leftOn: 'p_partkey', rightOn: 'l_partkey' })
      .filter(col('l_shipmode').isIn(['AIR', 'AIR REG']).and(col('l_shipinstruct').eq(s('DELIVER IN PERSON'))))
      .filter(arm('Brand#12', ['SM CASE', 'SM BOX', 'SM PACK', 'SM PKG'], 1, 5)
        .or(arm('Brand#23', ['MED BAG', 'MED BOX', 'MED PKG', 'MED PACK'], 10, 10))
        .or(arm('Brand#34', ['LG CASE', 'LG BOX', 'LG PACK', 'LG PKG'], 20, 15)))
      .select(rev().sum().alias('revenue'));
  },
  q20: (t) => {
    const T = lazy(t);
    const shipped = T.lineitem.filter(inRange('l_shipdate', '1994-01-01', '1995-01-01'))
      .groupBy(['l_partkey', 'l_suppkey']).agg(lit(0.5).mul(col('l_quantity').sum()).alias('sum_quantity'));
    const forest = T.part.filter(col('p_name').str.startsWith('forest')).select('p_partkey');
    const suppliers = T.partsupp.join(forest, { leftOn: 'ps_partkey', rightOn: 'p_partkey', how: 'semi' })
      .join(shipped, { leftOn: ['ps_partkey', 'ps_suppkey'], rightOn: ['l_partkey', 'l_suppkey'] })
      .filter(col('ps_availqty').gt(col('sum_quantity'))).select('ps_suppkey');
    return T.supplier.join(T.nation, { leftOn: 's_nationkey', rightOn: 'n_nationkey' })
      .filter(col('n_name').eq(s('CANADA')))
      .join(suppliers, { leftOn: 's_suppkey', rightOn: 'ps_suppkey', how: 'semi' })
      .select('s_name', 's_address').sort('s_name');
  },
  q21: (t) => {
    const T = lazy(t);
    const late = T.lineitem.filter(col('l_receiptdate').gt(col('l_commitdate')));
    const multi = T.lineitem.groupBy('l_orderkey').agg(col('l_suppkey').nUnique().alias('n_supp')).filter(col('n_supp').gt(1));
    const lateOnce = late.groupBy('l_orderkey').agg(col('l_suppkey').nUnique().alias('n_late')).filter(col('n_late').eq(1));
    return late.join(multi, { on: 'l_orderkey', how: 'semi' }).join(lateOnce, { on: 'l_orderkey', how: 'semi' })
      .join(T.supplier, { leftOn: 'l_suppkey', rightOn: 's_suppkey' })
      .join(T.nation, { leftOn: 's_nationkey', rightOn: 'n_nationkey' })
      .join(T.orders, { leftOn: 'l_orderkey', rightOn: 'o_orderkey' })
      .filter(col('n_name').eq(s('SAUDI ARABIA')).and(col('o_orderstatus').eq(s('F'))))
      .groupBy('s_name').agg(len().alias('numwait'))
      .sort(['numwait', 's_name'], [true, false]).head(100);
  },
  q22: (t) => {
    const T = lazy(t);
    const customers = T.customer.withColumns(col('c_phone').str.slice(0, 2).alias('cntrycode'))
      .filter(col('cntrycode').isIn(['13', '31', '23', '29', '30', '18', '17']));
    const avg = customers.filter(col('c_acctbal').gt(0)).select(col('c_acctbal').mean().alias('avg_acctbal'));
    return customers.join(avg, { how: 'cross' }).filter(col('c_acctbal').gt(col('avg_acctbal')))
      .join(T.orders, { leftOn: 'c_custkey', rightOn: 'o_custkey', how: 'anti' })
      .groupBy('cntrycode').agg(len().alias('numcust'), col('c_acctbal').sum().alias('totacctbal'))
      .sort('cntrycode');
  },
};
