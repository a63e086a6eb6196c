/**
 * The TPC-H generator (bench/tpch/gen/) at SF 0.01 against the specification's rules
 * (clause 4.2): row counts, key uniqueness and ranges, referential integrity, each column's
 * domain, the date rules, the derived columns, the text grammar, and that every query's
 * constants occur. Checked in DuckDB over the CSV files; the Parquet files are checked for
 * their types; a second run with one worker must write the same bytes.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { DuckDBConnection } from "@duckdb/node-api";

import { duckdbRows } from "./support/duckdb.js";
import { duckdbTpch, generate, schema, type TpchDataset } from "./support/tpch.js";

const SF = 0.01;
type Gen = TpchDataset & { remove(): void };
let d: Gen;
let conn: DuckDBConnection;

beforeAll(async () => {
  d = await generate(SF, { workers: 2, parquet: true });
  conn = await duckdbTpch(d);
}, 120_000);
afterAll(() => {
  conn?.closeSync();
  d?.remove();
});

/** The single value of a one-row, one-column query, as a number when numeric. */
async function value(sql: string): Promise<unknown> {
  const rows = await duckdbRows(conn, sql);
  const v = Object.values(rows[0] as Record<string, unknown>)[0];
  return typeof v === "bigint" ? Number(v) : v;
}
/** The number of rows a WHERE clause keeps. */
const count = (from: string, where = "true") => value(`SELECT count(*) FROM ${from} WHERE ${where}`);

describe("TPC-H generator, SF 0.01", () => {
  it("row counts are SF x the spec's (lineitem: 1..7 per order, about 4 on average)", async () => {
    const want: Record<string, number> = { region: 5, nation: 25, part: 2000, supplier: 100, partsupp: 8000, customer: 1500, orders: 15000 };
    for (const [t, n] of Object.entries(want)) expect(await count(t), t).toBe(n);
    const lines = (await count("lineitem")) as number;
    expect(lines).toBeGreaterThan(57_000);
    expect(lines).toBeLessThan(63_000);
    expect(await value("SELECT min(n) || '..' || max(n) FROM (SELECT count(*) AS n FROM lineitem GROUP BY l_orderkey)")).toBe("1..7");
  });

  it("keys are unique, dense where the spec says so, and sparse for orders", async () => {
    for (const [t, k] of [["region", "r_regionkey"], ["nation", "n_nationkey"], ["part", "p_partkey"], ["supplier", "s_suppkey"],
      ["customer", "c_custkey"], ["orders", "o_orderkey"], ["partsupp", "ps_partkey, ps_suppkey"], ["lineitem", "l_orderkey, l_linenumber"]]) {
      expect(await value(`SELECT count(*) - count(DISTINCT (${k})) FROM ${t}`), t).toBe(0);
    }
    for (const [t, k, n] of [["part", "p_partkey", 2000], ["supplier", "s_suppkey", 100], ["customer", "c_custkey", 1500], ["region", "r_regionkey", 4], ["nation", "n_nationkey", 24]] as const) {
      expect(await value(`SELECT min(${k}) || '..' || max(${k}) FROM ${t}`), t).toBe(`${t === "region" || t === "nation" ? 0 : 1}..${n}`);
    }
    // The first 8 of every 32 keys: 15000 orders end at key 32 * (15000 / 8 - 1) + 8.
    expect(await count("orders", "(o_orderkey - 1) % 32 >= 8")).toBe(0);
    expect(await value("SELECT max(o_orderkey) FROM orders")).toBe(32 * (15000 / 8 - 1) + 8);
    // Line numbers run 1..n within each order.
    expect(await count("(SELECT l_orderkey, max(l_linenumber) AS m, count(*) AS n FROM lineitem GROUP BY l_orderkey)", "m <> n")).toBe(0);
    // Every part has four distinct suppliers.
    expect(await count("(SELECT ps_partkey, count(DISTINCT ps_suppkey) AS n FROM partsupp GROUP BY ps_partkey)", "n <> 4")).toBe(0);
  });

  it("references resolve (lineitem's part and supplier are one of partsupp's pairs)", async () => {
    const orphans: [string, string, string][] = [
      ["lineitem", "orders", "l_orderkey = o_orderkey"],
      ["lineitem", "partsupp", "l_partkey = ps_partkey AND l_suppkey = ps_suppkey"],
      ["partsupp", "part", "ps_partkey = p_partkey"],
      ["partsupp", "supplier", "ps_suppkey = s_suppkey"],
      ["orders", "customer", "o_custkey = c_custkey"],
      ["customer", "nation", "c_nationkey = n_nationkey"],
      ["supplier", "nation", "s_nationkey = n_nationkey"],
      ["nation", "region", "n_regionkey = r_regionkey"],
    ];
    for (const [a, b, on] of orphans) expect(await value(`SELECT count(*) FROM ${a} ANTI JOIN ${b} ON ${on}`), `${a} -> ${b}`).toBe(0);
    expect(await value("SELECT count(*) FROM orders ANTI JOIN lineitem ON l_orderkey = o_orderkey")).toBe(0);
    // A third of the customers (key a multiple of 3) have no orders.
    expect(await count("orders", "o_custkey % 3 = 0")).toBe(0);
    expect(await value("SELECT count(DISTINCT o_custkey) FROM orders")).toBeGreaterThan(900);
  });

  it("each column stays in its domain", async () => {
    const checks: [string, string][] = [
      ["part", "p_size NOT BETWEEN 1 AND 50"],
      ["part", "p_retailprice <> (90000 + ((p_partkey // 10) % 20001) + 100 * (p_partkey % 1000)) / 100"],
      ["part", "NOT regexp_full_match(p_mfgr, 'Manufacturer#[1-5]') OR p_brand <> 'Brand#' || right(p_mfgr, 1) || right(p_brand, 1) OR NOT regexp_full_match(p_brand, 'Brand#[1-5][1-5]')"],
      ["part", "NOT regexp_full_match(p_type, '(STANDARD|SMALL|MEDIUM|LARGE|ECONOMY|PROMO) (ANODIZED|BURNISHED|PLATED|POLISHED|BRUSHED) (TIN|NICKEL|BRASS|STEEL|COPPER)')"],
      ["part", "NOT regexp_full_match(p_container, '(SM|LG|MED|JUMBO|WRAP) (CASE|BOX|BAG|JAR|PKG|PACK|CAN|DRUM)')"],
      ["partsupp", "ps_availqty NOT BETWEEN 1 AND 9999 OR ps_supplycost NOT BETWEEN 1 AND 1000"],
      ["supplier", "s_acctbal NOT BETWEEN -999.99 AND 9999.99 OR s_name <> 'Supplier#' || lpad(s_suppkey::VARCHAR, 9, '0')"],
      ["customer", "c_acctbal NOT BETWEEN -999.99 AND 9999.99 OR c_name <> 'Customer#' || lpad(c_custkey::VARCHAR, 9, '0')"],
      ["customer", "c_mktsegment NOT IN ('AUTOMOBILE', 'BUILDING', 'FURNITURE', 'MACHINERY', 'HOUSEHOLD')"],
      ["customer", "NOT regexp_full_match(c_phone, '[0-9]{2}-[1-9][0-9]{2}-[1-9][0-9]{2}-[1-9][0-9]{3}') OR left(c_phone, 2)::INTEGER <> c_nationkey + 10"],
      ["supplier", "NOT regexp_full_match(s_phone, '[0-9]{2}-[1-9][0-9]{2}-[1-9][0-9]{2}-[1-9][0-9]{3}') OR left(s_phone, 2)::INTEGER <> s_nationkey + 10"],
      ["customer", "length(c_address) NOT BETWEEN 10 AND 40 OR NOT regexp_full_match(c_address, '[a-zA-Z0-9, ]+')"],
      ["orders", "o_orderpriority NOT IN ('1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW') OR o_shippriority <> 0"],
      ["orders", "NOT regexp_full_match(o_clerk, 'Clerk#0000000[0-9][0-9]') OR right(o_clerk, 9)::INTEGER NOT BETWEEN 1 AND 10"],
      ["orders", "o_orderdate NOT BETWEEN DATE '1992-01-01' AND DATE '1998-08-02'"],
      ["lineitem", "l_quantity NOT BETWEEN 1 AND 50 OR l_quantity <> round(l_quantity)"],
      ["lineitem", "l_discount NOT BETWEEN 0 AND 0.1 OR l_tax NOT BETWEEN 0 AND 0.08 OR abs(l_discount * 100 - round(l_discount * 100)) > 1e-9"],
      ["lineitem", "l_shipinstruct NOT IN ('DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN')"],
      ["lineitem", "l_shipmode NOT IN ('REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB')"],
    ];
    for (const [t, bad] of checks) expect(await count(t, bad), `${t}: ${bad}`).toBe(0);
    // l_extendedprice = l_quantity * p_retailprice, to the cent.
    expect(await value("SELECT count(*) FROM lineitem JOIN part ON l_partkey = p_partkey WHERE abs(l_extendedprice - l_quantity * p_retailprice) > 0.001")).toBe(0);
    // P_NAME: five distinct words of the colour list.
    const names = (await duckdbRows(conn, "SELECT p_name FROM part")).map((r) => r.p_name as string);
    const { COLORS } = (await import(new URL("../bench/tpch/gen/dists.mjs", import.meta.url).href)) as { COLORS: string[] };
    for (const n of names) {
      const w = n.split(" ");
      expect(w.length === 5 && new Set(w).size === 5 && w.every((x) => COLORS.includes(x)), n).toBe(true);
    }
  });

  it("dates follow the spec's rules, and the flags and status derive from them", async () => {
    const joined = "lineitem JOIN orders ON l_orderkey = o_orderkey";
    expect(await count(joined, "l_shipdate - o_orderdate NOT BETWEEN 1 AND 121")).toBe(0);
    expect(await count(joined, "l_commitdate - o_orderdate NOT BETWEEN 30 AND 90")).toBe(0);
    expect(await count("lineitem", "l_receiptdate - l_shipdate NOT BETWEEN 1 AND 30")).toBe(0);
    // CURRENTDATE = 1995-06-17.
    expect(await count("lineitem", "(l_receiptdate <= DATE '1995-06-17') <> (l_returnflag IN ('R', 'A')) OR l_returnflag NOT IN ('R', 'A', 'N')")).toBe(0);
    expect(await count("lineitem", "(l_shipdate > DATE '1995-06-17') <> (l_linestatus = 'O') OR l_linestatus NOT IN ('O', 'F')")).toBe(0);
    expect(await value("SELECT string_agg(DISTINCT l_returnflag, '' ORDER BY l_returnflag) FROM lineitem")).toBe("ANR");
    const status = `SELECT o_orderstatus, CASE WHEN bool_and(l_linestatus = 'F') THEN 'F' WHEN bool_and(l_linestatus = 'O') THEN 'O' ELSE 'P' END AS s
      FROM ${joined} GROUP BY o_orderkey, o_orderstatus`;
    expect(await count(`(${status})`, "o_orderstatus <> s")).toBe(0);
    expect(await value("SELECT string_agg(DISTINCT o_orderstatus, '' ORDER BY o_orderstatus) FROM orders")).toBe("FOP");
    // o_totalprice: the lines' extendedprice * (1 + tax) * (1 - discount), each to the cent.
    const diff = `SELECT o_orderkey, abs(any_value(o_totalprice) - sum(round(l_extendedprice * (1 + l_tax) * (1 - l_discount), 2))) AS d, count(*) AS n
      FROM ${joined} GROUP BY o_orderkey`;
    expect(await count(`(${diff})`, "d > 0.01 * n + 1e-6")).toBe(0);
  });

  it("text columns come from the grammar with the spec's lengths, and the special supplier comments", async () => {
    const lengths: [string, string, number, number][] = [
      ["part", "p_comment", 5, 22], ["supplier", "s_comment", 25, 100], ["partsupp", "ps_comment", 49, 198],
      ["customer", "c_comment", 29, 116], ["orders", "o_comment", 19, 78], ["lineitem", "l_comment", 10, 43],
      ["nation", "n_comment", 31, 114], ["region", "r_comment", 31, 115], ["supplier", "s_address", 10, 40],
    ];
    for (const [t, c, lo, hi] of lengths) expect(await count(t, `length(${c}) NOT BETWEEN ${lo} AND ${hi}`), c).toBe(0);
    // Whole words inside a comment (the first and last may be cut) are words of the grammar.
    const d = (await import(new URL("../bench/tpch/gen/dists.mjs", import.meta.url).href)) as Record<string, [string, number][]>;
    const vocab = new Set(["the", ...["NOUNS", "VERBS", "ADJECTIVES", "ADVERBS", "PREPOSITIONS", "AUXILIARIES"]
      .flatMap((k) => (d[k] as [string, number][]).flatMap(([w]) => w.split(" ")))]);
    const comments = (await duckdbRows(conn, "SELECT o_comment FROM orders LIMIT 3000")).map((r) => r.o_comment as string);
    const strange = new Set<string>();
    for (const text of comments) {
      const words = text.split(" ").slice(1, -1).map((w) => w.replace(/[,.;:?!]|--/g, "")).filter(Boolean);
      for (const w of words) if (!vocab.has(w)) strange.add(w);
    }
    expect([...strange]).toEqual([]);
    // SF * 5 (at least one) suppliers complain, as many recommend; "Customer" appears nowhere else.
    expect(await count("supplier", "s_comment LIKE '%Customer%Complaints%'")).toBe(1);
    expect(await count("supplier", "s_comment LIKE '%Customer%Recommends%'")).toBe(1);
    expect(await count("supplier", "s_comment LIKE '%Customer%'")).toBe(2);
  });

  it("every query's constants occur", async () => {
    const present: [string, string][] = [
      ["part", "p_type LIKE '%BRASS' AND p_size = 15"], ["part", "p_type LIKE 'PROMO%'"], ["part", "p_name LIKE 'forest%'"],
      ["part", "p_name LIKE '%green%'"], ["part", "p_type = 'ECONOMY ANODIZED STEEL'"], ["part", "p_type LIKE 'MEDIUM POLISHED%'"],
      ["part", "p_brand = 'Brand#23' AND p_container = 'MED BOX'"], ["part", "p_brand = 'Brand#45'"],
      ["part", "p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG')"],
      ["part", "p_brand = 'Brand#34' AND p_container IN ('LG CASE', 'LG BOX', 'LG PACK', 'LG PKG')"],
      ["orders", "o_comment LIKE '%special%requests%'"], ["orders", "o_comment NOT LIKE '%special%requests%'"],
      ["customer", "c_mktsegment = 'BUILDING'"], ["lineitem", "l_returnflag = 'R'"],
      ["lineitem", "l_shipmode IN ('MAIL', 'SHIP') AND l_shipinstruct = 'DELIVER IN PERSON'"], ["lineitem", "l_shipmode = 'AIR'"],
      ["(SELECT sum(l_quantity) AS q FROM lineitem GROUP BY l_orderkey)", "q > 300"],
    ];
    for (const [t, where] of present) expect(await count(t, where), where).toBeGreaterThan(0);
    const { NATIONS, REGIONS } = (await import(new URL("../bench/tpch/gen/dists.mjs", import.meta.url).href)) as { NATIONS: [string, number][]; REGIONS: string[] };
    expect((await duckdbRows(conn, "SELECT n_name, n_regionkey FROM nation ORDER BY n_nationkey")).map((r) => [r.n_name, r.n_regionkey])).toEqual(NATIONS);
    expect((await duckdbRows(conn, "SELECT r_name FROM region ORDER BY r_regionkey")).map((r) => r.r_name)).toEqual(REGIONS);
    for (const [c, t, n] of [["c_mktsegment", "customer", 5], ["l_shipmode", "lineitem", 7], ["l_shipinstruct", "lineitem", 4],
      ["p_container", "part", 40], ["p_type", "part", 150], ["o_orderpriority", "orders", 5]] as const) {
      expect(await value(`SELECT count(DISTINCT ${c}) FROM ${t}`), c).toBe(n);
    }
    const codes = (await duckdbRows(conn, "SELECT DISTINCT left(c_phone, 2) AS cc FROM customer")).map((r) => r.cc as string);
    for (const cc of ["13", "31", "23", "29", "30", "18", "17"]) expect(codes).toContain(cc);
  });

  it("Parquet files carry the schema's types and the CSV's rows", async () => {
    const s = await schema();
    const sqlType: Record<string, string> = { int32: "INTEGER", float64: "DOUBLE", date32: "DATE", utf8: "VARCHAR" };
    for (const t of s.TABLE_NAMES) {
      const f = d.tables[t] as { parquet: string };
      const cols = await duckdbRows(conn, `DESCRIBE SELECT * FROM read_parquet('${f.parquet}')`);
      expect(cols.map((c) => [c.column_name, c.column_type]), t).toEqual((s.TABLES[t] as [string, string][]).map(([n, ty]) => [n, sqlType[ty]]));
      expect(await value(`SELECT count(*) FROM (SELECT * FROM read_parquet('${f.parquet}') EXCEPT ALL SELECT * FROM ${t})`), t).toBe(0);
    }
  });

  it("one worker writes the same bytes as two", async () => {
    const one = await generate(SF, { workers: 1, parquet: false });
    try {
      for (const [t, f] of Object.entries(d.tables)) {
        expect(readFileSync(f.csv).equals(readFileSync((one.tables[t] as { csv: string }).csv)), t).toBe(true);
      }
    } finally {
      one.remove();
    }
  });
});
