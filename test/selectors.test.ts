/**
 * Column selectors: cs.*, col("^re$"), col("a", "b"), col([dtypes]), all(), exclude(), set
 * operations and .name renamings, expanded by every verb (select, withColumns, filter, groupBy
 * keys and agg, sort), eagerly and lazily, with exact names, values and dtypes; errors by code.
 */
import { describe, expect, it } from "vitest";

import { DataFrame, all, col, cs, exclude, len, type LazyFrame } from "../src/index.js";
import { expectCode } from "./helpers.js";

const frame = (): DataFrame =>
  new DataFrame({
    id: Int32Array.of(1, 2, 3, 4),
    name: ["a", "b", null, "d"],
    x_1: Float64Array.of(1.5, 2.5, 3.5, 4.5),
    x_2: BigInt64Array.of(10n, 20n, 30n, 40n),
    flag: [true, false, null, true],
    ts: [new Date(0), new Date(86_400_000), null, new Date(3 * 86_400_000)],
    y: Uint8Array.of(7, 8, 9, 10),
  });

/** The frame's columns after `f`, eagerly and lazily (both must agree). */
async function both(f: (d: DataFrame | LazyFrame) => DataFrame | LazyFrame): Promise<DataFrame> {
  const df = frame();
  const eager = f(df) as DataFrame;
  const lazy = await (f(df.lazy()) as LazyFrame).collect();
  expect(lazy.columns).toEqual(eager.columns);
  expect(lazy.dtypes).toEqual(eager.dtypes);
  expect(lazy.toRecords()).toEqual(eager.toRecords());
  return eager;
}

describe("selectors pick columns in frame order", () => {
  const cases: [string, () => Parameters<DataFrame["select"]>[0], string[]][] = [
    ["all", () => cs.all(), ["id", "name", "x_1", "x_2", "flag", "ts", "y"]],
    ["numeric", () => cs.numeric(), ["id", "x_1", "x_2", "y"]],
    ["integer", () => cs.integer(), ["id", "x_2", "y"]],
    ["float", () => cs.float(), ["x_1"]],
    ["string", () => cs.string(), ["name"]],
    ["temporal", () => cs.temporal(), ["ts"]],
    ["boolean", () => cs.boolean(), ["flag"]],
    ["byDtype", () => cs.byDtype("int64", "uint8"), ["x_2", "y"]],
    ["byName keeps the order given", () => cs.byName("y", "id"), ["y", "id"]],
    ["startsWith", () => cs.startsWith("x_"), ["x_1", "x_2"]],
    ["endsWith", () => cs.endsWith("_2", "d"), ["id", "x_2"]],
    ["contains", () => cs.contains("a"), ["name", "flag"]],
    ["matches (regex, unanchored)", () => cs.matches("^[xy]"), ["x_1", "x_2", "y"]],
    ["first", () => cs.first(), ["id"]],
    ["last", () => cs.last(), ["y"]],
    ["or", () => cs.string().or(cs.boolean()), ["name", "flag"]],
    ["and", () => cs.numeric().and(cs.startsWith("x")), ["x_1", "x_2"]],
    ["sub", () => cs.numeric().sub(cs.byName("id")), ["x_1", "x_2", "y"]],
    ["xor", () => cs.integer().xor(cs.startsWith("x")), ["id", "x_1", "y"]],
    ["exclude names and a selector", () => cs.exclude("id", cs.numeric()), ["name", "flag", "ts"]],
    ["col regex", () => col("^x_.*$"), ["x_1", "x_2"]],
    ["col several names, in the order given", () => col("y", "name"), ["y", "name"]],
    ["col array of dtypes", () => col(["bool", "float64"]), ["x_1", "flag"]],
    ["all()", () => all(), ["id", "name", "x_1", "x_2", "flag", "ts", "y"]],
    ["exclude() with a regex and a dtype", () => exclude("^x_.*$", "utf8"), ["id", "flag", "ts", "y"]],
    ["an empty selection", () => cs.startsWith("zz"), []],
  ];
  for (const [what, sel, want] of cases) {
    it(what, async () => {
      const out = await both((d) => d.select(sel()));
      expect(out.columns).toEqual(want);
      expect(out.height).toBe(want.length === 0 ? 0 : 4);
    });
  }

  it("a string select item that is a regex expands too", async () => {
    expect((await both((d) => d.select("^x_.*$", "id"))).columns).toEqual(["x_1", "x_2", "id"]);
  });

  it("a dtype name that is also a column's name is the column", () => {
    const df = new DataFrame({ bool: [1, 2], b: [true, false] });
    expect(df.select(col(["bool"])).columns).toEqual(["bool"]);
    expect(df.select(col("bool")).dtypes).toEqual(["float64"]);
  });
});

describe("methods on a selector apply to each column", () => {
  it("aggregations with .name.suffix / .name.prefix, exact values and dtypes", async () => {
    const out = await both((d) => d.select(cs.numeric().sum().name.suffix("_sum"), cs.integer().max().name.prefix("max_")));
    expect(out.columns).toEqual(["id_sum", "x_1_sum", "x_2_sum", "y_sum", "max_id", "max_x_2", "max_y"]);
    expect(out.dtypes).toEqual(["int64", "float64", "int64", "uint64", "int32", "int64", "uint8"]);
    expect(out.toRecords()).toEqual([{ id_sum: 10n, x_1_sum: 12, x_2_sum: 100n, y_sum: 34n, max_id: 4, max_x_2: 40n, max_y: 10 }]);
  });

  it(".name.keep undoes an alias; upper / lower case", async () => {
    const out = await both((d) => d.select(col("id").alias("z").name.keep(), col("x_1").name.toUppercase(), col("name").name.toLowercase()));
    expect(out.columns).toEqual(["id", "X_1", "name"]);
  });

  it("withColumns replaces each selected column in place", async () => {
    const out = await both((d) => d.withColumns(cs.float().mul(2), cs.string().str.toUpperCase()));
    expect(out.columns).toEqual(["id", "name", "x_1", "x_2", "flag", "ts", "y"]);
    expect(out.getColumn("x_1").toArray()).toEqual([3, 5, 7, 9]);
    expect(out.getColumn("name").toArray()).toEqual(["A", "B", null, "D"]);
  });

  it("equal selectors in one expression pick the same column each time", async () => {
    const out = await both((d) => d.select(cs.float().add(cs.float())));
    expect(out.toRecords().map((r) => r.x_1)).toEqual([3, 5, 7, 9]);
  });

  it("filter with a selector of several columns ANDs them", async () => {
    const df = new DataFrame({ a: [true, true, false, null], b: [true, false, true, true], v: [1, 2, 3, 4] });
    expect(df.filter(cs.boolean()).getColumn("v").toArray()).toEqual([1]);
    expect((await df.lazy().filter(cs.boolean()).collect()).getColumn("v").toArray()).toEqual([1]);
  });

  it("groupBy keys and agg expand; sort by a selector", async () => {
    const df = new DataFrame({ k1: ["a", "b", "a"], k2: ["x", "x", "x"], v: [1, 2, 3], w: [10, 20, 30] });
    const eager = df.groupBy(cs.string(), { sort: true }).agg(cs.numeric().sum(), len());
    const lazy = await df.lazy().groupBy(cs.string(), { sort: true }).agg(cs.numeric().sum(), len()).collect();
    for (const out of [eager, lazy]) {
      expect(out.columns).toEqual(["k1", "k2", "v", "w", "len"]);
      expect(out.toRecords()).toEqual([
        { k1: "a", k2: "x", v: 4, w: 40, len: 2n },
        { k1: "b", k2: "x", v: 2, w: 20, len: 1n },
      ]);
    }
    expect(df.sort(cs.byName("v"), { descending: true }).getColumn("v").toArray()).toEqual([3, 2, 1]);
    expect((await df.lazy().sort([col("^w$")], { descending: true }).collect()).getColumn("w").toArray()).toEqual([30, 20, 10]);
  });

  it("drop takes selectors", async () => {
    expect((await both((d) => d.drop(cs.numeric(), "flag"))).columns).toEqual(["name", "ts"]);
    expect((await both((d) => d.drop(col("^x_.*$")))).columns).toEqual(["id", "name", "flag", "ts", "y"]);
    expectCode(() => frame().drop(cs.numeric().sum()), "ERR_INVALID_ARGUMENT");
  });

  it("asExpr gives plain Expr operations", () => {
    const df = new DataFrame({ a: [true, false], b: [false, false] });
    expect(df.select(cs.byName("a").asExpr().or(col("b"))).toRecords()).toEqual([{ a: true }, { a: false }]);
  });
});

describe("printing", () => {
  it("selectors, renamings and sortBy print as the API spells them", () => {
    expect(String(cs.numeric().sum().name.suffix("_s"))).toBe('cs.numeric().sum().name.suffix("_s")');
    expect(String(cs.all().sub(cs.byName("k")))).toBe('cs.all().sub(cs.byName("k"))');
    expect(String(col("^a$"))).toBe('cs.matches("^a$")');
    expect(String(col("v").sortBy(["t", "k"], { descending: [true, false] }).last())).toBe(
      'col("v").sortBy([col("t"), col("k")], { descending: [true, false] }).last()',
    );
  });
});

describe("selector errors", () => {
  it("a missing name is ERR_COLUMN_NOT_FOUND; an unknown dtype ERR_DTYPE", () => {
    expectCode(() => frame().select(cs.byName("nope")), "ERR_COLUMN_NOT_FOUND");
    expectCode(() => frame().select(col("id", "nope")), "ERR_COLUMN_NOT_FOUND");
    expectCode(() => frame().lazy().select(cs.byName("nope")), "ERR_COLUMN_NOT_FOUND");
    expectCode(() => cs.byDtype("int128" as never), "ERR_DTYPE");
  });

  it("a bad regex is ERR_INVALID_ARGUMENT; two different selectors in one expression too", () => {
    expectCode(() => frame().select(cs.matches("(")), "ERR_INVALID_ARGUMENT");
    expectCode(() => frame().select(cs.float().add(cs.integer())), "ERR_INVALID_ARGUMENT");
    expectCode(() => cs.startsWith(), "ERR_INVALID_ARGUMENT");
    expectCode(() => col(["a", 1 as never]), "ERR_INVALID_ARGUMENT");
  });

  it("a selector as a sortBy or over() key is ERR_INVALID_ARGUMENT", () => {
    expectCode(() => frame().select(col("id").sortBy(cs.string()).first()), "ERR_INVALID_ARGUMENT");
    expectCode(() => frame().select(col("id").sum().over(cs.boolean())), "ERR_INVALID_ARGUMENT");
    expectCode(() => frame().lazy().select(col("id").sum().over(col("name", "flag"))), "ERR_INVALID_ARGUMENT");
  });

  it("duplicate output names after expansion are ERR_INVALID_ARGUMENT", () => {
    expectCode(() => frame().select(cs.numeric(), col("id")), "ERR_INVALID_ARGUMENT");
  });

  it("a filter selecting no column is ERR_INVALID_ARGUMENT", () => {
    expectCode(() => frame().filter(cs.startsWith("zz")), "ERR_INVALID_ARGUMENT");
  });
});
