/**
 * Morsel pipelines (native/exec/pipeline.cpp): an aggregation and the row-wise projections
 * below it run morsel by morsel when the input has more than one morsel (65536 rows). The
 * results must equal the operator-by-operator run (integers, counts, min / max and keys exactly;
 * float sums to the documented morsel shape, bit for bit), and a plan the pipeline cannot take
 * must run as before.
 */
import { describe, expect, it } from "vitest";

import { col, DataFrame, len, lit, type LazyFrame } from "gpudf";
import { expectSameFrame } from "../helpers.js";

const MORSEL = 65536;
const N = 150_000;

/** A deterministic frame: utf8 and int keys (with nulls), float / int / date values (with nulls). */
function data(n = N): DataFrame {
  let s = 12345;
  const next = (): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
  const k: (string | null)[] = [];
  const k2: number[] = [];
  const x: (number | null)[] = [];
  const i: (number | null)[] = [];
  const d: (Date | null)[] = [];
  for (let r = 0; r < n; r++) {
    const u = next();
    k.push(u < 0.05 ? null : ["a", "b", "c", "d"][Math.floor(u * 4)]!);
    k2.push(Math.floor(next() * 3));
    x.push(next() < 0.1 ? null : (next() - 0.3) * 1000.123);
    i.push(next() < 0.1 ? null : Math.floor(next() * 2001) - 1000);
    d.push(next() < 0.1 ? null : new Date(Date.UTC(2000, 0, 1 + Math.floor(next() * 9000))));
  }
  return new DataFrame({ k, k2: Int32Array.from(k2), x, i, d }).withColumns(col("i").cast("int32"), col("d").cast("date32"));
}

/**
 * The query the pipeline takes: a filter, a row-wise projection, an aggregation of every kind it
 * merges. The filter keeps most rows, so the morsels run over base rows (nothing gathered) —
 * unless null keys must form a group (dropNulls false with null keys): then they gather.
 */
function query(df: DataFrame, dropNulls = false): LazyFrame {
  return df
    .lazy()
    .filter(col("k2").neq(1).or(col("x").gt(0)))
    .withColumns(col("x").mul(2).add(col("i")).alias("y"))
    .groupBy(["k", "k2"], { maintainOrder: true, dropNulls })
    .agg(
      col("x").sum().alias("sx"),
      col("i").sum().alias("si"),
      col("y").mean().alias("my"),
      col("i").min().alias("mini"),
      col("x").max().alias("maxx"),
      col("d").max().alias("maxd"),
      len().alias("n"),
      col("x").count().alias("cx"),
      col("i").nullCount().alias("ni"),
    );
}

/** The rows of `df` a pipeline's input holds (the filter's), as JS values. */
function filtered(df: DataFrame): { key: string; x: number | null; y: number | null }[] {
  // (a null k shows as "null|...")
  const out: { key: string; x: number | null; y: number | null }[] = [];
  const k = df.getColumn("k").toArray() as (string | null)[];
  const k2 = df.getColumn("k2").toArray() as number[];
  const x = df.getColumn("x").toArray() as (number | null)[];
  const i = df.getColumn("i").toArray() as (number | null)[];
  for (let r = 0; r < df.height; r++) {
    if (!(k2[r] !== 1 || (x[r] !== null && x[r]! > 0))) continue;
    const y = x[r] === null || i[r] === null ? null : x[r]! * 2 + i[r]!;
    out.push({ key: `${k[r]}|${k2[r]}`, x: x[r]!, y });
  }
  return out;
}

/**
 * Per group, the float sum of `pick` in the pipeline's shape: the rows cut into
 * ceil(n / 65536) equal morsels, each group's rows folded from 0 in row order within a morsel,
 * the morsels' partials added from 0 in morsel order. Nulls count as 0 (sum) and not at all (count).
 */
function morselSums(rows: ReturnType<typeof filtered>, pick: (r: (typeof rows)[number]) => number | null): Map<string, { sum: number; valid: number }> {
  const n = rows.length;
  const morsels = Math.ceil(n / MORSEL);
  const total = new Map<string, { sum: number; valid: number }>();
  for (let m = 0; m < morsels; m++) {
    const part = new Map<string, { sum: number; valid: number }>();
    for (let r = Math.floor((m * n) / morsels); r < Math.floor(((m + 1) * n) / morsels); r++) {
      const v = pick(rows[r]!);
      const p = part.get(rows[r]!.key) ?? { sum: 0, valid: 0 };
      part.set(rows[r]!.key, { sum: p.sum + (v ?? 0), valid: p.valid + (v === null ? 0 : 1) });
    }
    for (const [key, p] of part) {
      const t = total.get(key) ?? { sum: 0, valid: 0 };
      total.set(key, { sum: t.sum + p.sum, valid: t.valid + p.valid });
    }
  }
  return total;
}

const names = (profile: DataFrame): string[] => profile.getColumn("name").toArray() as string[];

describe("morsel pipelines", () => {
  const df = data();

  it("run a filter's rows through the projection and the aggregation as one operator", async () => {
    const { profile } = await query(df).profile();
    const ops = names(profile);
    expect(ops.filter((o) => o.startsWith("AGGREGATE"))).toHaveLength(1);
    expect(ops.find((o) => o.startsWith("AGGREGATE"))).toContain("(morsel pipeline with the 1 projection(s) below)");
    expect(ops.some((o) => o.startsWith("SELECT"))).toBe(false);
    const { profile: off } = await query(df).profile({ optimizations: { pipelines: false } });
    expect(names(off).some((o) => o.startsWith("SELECT"))).toBe(true);
    expect(names(off).some((o) => o.includes("morsel pipeline"))).toBe(false);
  });

  it.each([false, true])("give the operators' keys, group order, counts, integer sums and extremes exactly (dropNulls %s)", (dropNulls) => {
    const on = query(df, dropNulls).collectSync();
    const off = query(df, dropNulls).collectSync({ optimizations: { pipelines: false } });
    expect(on.dtypes).toEqual(off.dtypes);
    for (const c of ["k", "k2", "si", "mini", "maxx", "maxd", "n", "cx", "ni"]) {
      expect(on.getColumn(c).toArray(), c).toEqual(off.getColumn(c).toArray());
    }
    for (const c of ["sx", "my"]) {
      const a = on.getColumn(c).toArray() as number[];
      const b = off.getColumn(c).toArray() as number[];
      a.forEach((v, r) => expect(v).toBeCloseTo(b[r]!, 6));
    }
    // The eager groupBy over the same rows gives the same groups in the same (first-appearance) order.
    const eager = df
      .filter(col("k2").neq(1).or(col("x").gt(0)))
      .groupBy(["k", "k2"], { maintainOrder: true, dropNulls })
      .agg(len().alias("n"));
    expect(on.select("k", "k2", "n").toRecords()).toEqual(eager.toRecords());
  });

  it.each([false, true])("fold float sums and means per morsel, then the morsels in order, bit for bit (dropNulls %s)", (dropNulls) => {
    const on = query(df, dropNulls).collectSync();
    const all = filtered(df);
    // The morsels cut the filter's rows, null keys included; a dropped key's rows fold nowhere.
    const rows = dropNulls ? all.map((r) => (r.key.startsWith("null|") ? { ...r, key: "dropped" } : r)) : all;
    expect(Math.ceil(rows.length / MORSEL)).toBeGreaterThan(1);
    const sx = morselSums(rows, (r) => r.x);
    const sy = morselSums(rows, (r) => r.y);
    const keys = (on.getColumn("k").toArray() as (string | null)[]).map((k, r) => `${k}|${on.getColumn("k2").toArray()[r]}`);
    const gotSx = on.getColumn("sx").toArray() as number[];
    const gotMy = on.getColumn("my").toArray() as (number | null)[];
    expect(keys.length).toBe(sx.size - (dropNulls ? 1 : 0));
    keys.forEach((key, r) => {
      expect(gotSx[r], key).toBe(sx.get(key)!.sum);
      const y = sy.get(key)!;
      expect(gotMy[r], key).toBe(y.valid ? y.sum / y.valid : null);
    });
  });

  it("take an aggregation with no projection below it, and sort and drop null keys as asked", () => {
    const lf = df.lazy().groupBy("k", { sort: true, dropNulls: true }).agg(col("x").sum().alias("s"), col("i").max().alias("m"), len());
    const on = lf.collectSync();
    const off = lf.collectSync({ optimizations: { pipelines: false } });
    expect(on.getColumn("k").toArray()).toEqual(["a", "b", "c", "d"]);
    expect(on.getColumn("m").toArray()).toEqual(off.getColumn("m").toArray());
    expect(on.getColumn("len").toArray()).toEqual(off.getColumn("len").toArray());
    const a = on.getColumn("s").toArray() as number[];
    (off.getColumn("s").toArray() as number[]).forEach((v, r) => expect(a[r]).toBeCloseTo(v, 6));
  });

  it("leave many groups, other aggregations and non-row-wise projections to the operators", async () => {
    const many = df.withRowIndex("row");
    const cases: LazyFrame[] = [
      // Nearly one group per row: partials would not pay.
      many.lazy().groupBy("row").agg(col("x").sum()),
      // median has no exact partials; a float32 sum would round twice.
      df.lazy().groupBy("k").agg(col("x").median()),
      df.lazy().groupBy("k").agg(col("x").cast("float32").sum()),
    ];
    for (const lf of cases) {
      const { result, profile } = await lf.profile();
      expect(names(profile).some((o) => o.includes("morsel pipeline"))).toBe(false);
      const key = result.columns[0]!;
      expectSameFrame(result.sort(key), lf.collectSync({ optimizations: { pipelines: false } }).sort(key));
    }
    // cumSum reads earlier rows: its projection runs whole, only the aggregation above it is a pipeline.
    const cum = df.lazy().withColumns(col("i").cumSum().alias("c")).groupBy("k", { sort: true }).agg(col("c").max());
    const { result, profile } = await cum.profile();
    expect(names(profile).some((o) => o.startsWith("SELECT") || o.startsWith("WITH"))).toBe(true);
    expect(names(profile).find((o) => o.startsWith("AGGREGATE"))).toContain("(morsel pipeline)");
    expectSameFrame(result, cum.collectSync({ optimizations: { pipelines: false } }));
    expect(result.getColumn("c").toArray()).toEqual(df.withColumns(col("i").cumSum().alias("c")).groupBy("k", { sort: true }).agg(col("c").max()).getColumn("c").toArray());
  });

  it("leave a projection that other operators read too out of the pipeline (it runs once)", async () => {
    const n = 200_000;
    const frame = new DataFrame({ k2: Int32Array.from({ length: n }, (_, i) => i % 3), x: Float64Array.from({ length: n }, (_, i) => i * 0.5) });
    const projected = frame.lazy().withColumns(col("x").mul(2).alias("x2"));
    const sums = projected.groupBy("k2").agg(col("x2").sum().alias("s"), len());
    const lf = sums
      .join(projected, { on: "k2", how: "inner" })
      .groupBy("k2", { sort: true })
      .agg(col("x2").max().alias("m"), col("s").first(), len().alias("n2"));
    const { result, profile } = await lf.profile();
    const ops = names(profile);
    expect(ops.filter((o) => o.startsWith('SELECT col("k2"), col("x")'))).toHaveLength(1);
    expect(ops.filter((o) => o.includes("(morsel pipeline)"))).toHaveLength(1);
    expectSameFrame(result, lf.collectSync({ optimizations: { pipelines: false } }));
    // Sums of whole numbers below 2^53 are exact in any order: x2 of row i is i.
    const sum = (k: number): number => Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 === k).reduce((a, b) => a + b, 0);
    expect(result.toRecords()).toEqual([
      { k2: 0, m: 199998, s: sum(0), n2: 66667n },
      { k2: 1, m: 199999, s: sum(1), n2: 66667n },
      { k2: 2, m: 199997, s: sum(2), n2: 66666n },
    ]);
  });

  describe("with filters inside", () => {
    /** Every column of `on` equal to `off`'s: integers, keys and extremes exactly, float sums close. */
    const same = (on: DataFrame, off: DataFrame, floats: string[]): void => {
      expect(on.columns).toEqual(off.columns);
      expect(on.dtypes).toEqual(off.dtypes);
      for (const c of on.columns.filter((c) => !floats.includes(c))) expect(on.getColumn(c).toArray(), c).toEqual(off.getColumn(c).toArray());
      for (const c of floats) {
        const b = off.getColumn(c).toArray() as (number | null)[];
        (on.getColumn(c).toArray() as (number | null)[]).forEach((v, r) => (b[r] === null ? expect(v).toBeNull() : expect(v).toBeCloseTo(b[r]!, 6)));
      }
    };
    const aggs = [col("x").sum().alias("sx"), col("i").sum().alias("si"), col("y").mean().alias("my"), col("i").min().alias("mini"), col("d").max().alias("maxd"), len().alias("n")];

    it("run filters below and above a projection per morsel", async () => {
      // With predicate pushdown off both filters stay where they are written, inside the
      // pipeline (pushdown would move them into the scan).
      const optimizations = { predicatePushdown: false };
      const lf = df
        .lazy()
        .filter(col("k2").neq(1).or(col("x").gt(0)))
        .withColumns(col("x").mul(2).add(col("i")).alias("y"))
        .filter(col("y").gt(-300))
        .groupBy(["k", "k2"], { maintainOrder: true })
        .agg(...aggs);
      const { result, profile } = await lf.profile({ optimizations });
      const ops = names(profile);
      expect(ops.find((o) => o.startsWith("AGGREGATE"))).toContain("(morsel pipeline with the 1 projection(s) and 2 filter(s) below)");
      expect(ops.some((o) => o.startsWith("FILTER"))).toBe(false);
      const off = lf.collectSync({ optimizations: { ...optimizations, pipelines: false } });
      expect(names((await lf.profile({ optimizations: { ...optimizations, pipelines: false } })).profile).some((o) => o.startsWith("FILTER"))).toBe(true);
      expectSameFrame(lf.collectSync(), off.select(...off.columns));
      same(result, off, ["sx", "my"]);
      // The groups' row counts, from JS over the same rows.
      const want = new Map<string, bigint>();
      for (const r of filtered(df)) if (r.y !== null && r.y > -300) want.set(r.key, (want.get(r.key) ?? 0n) + 1n);
      const keys = (result.getColumn("k").toArray() as (string | null)[]).map((k, r) => `${k}|${result.getColumn("k2").toArray()[r]}`);
      expect(new Map(keys.map((k, r) => [k, result.getColumn("n").toArray()[r] as bigint]))).toEqual(want);
    });

    it("leave a filter that reads other rows to the operators, below the pipeline", async () => {
      const lf = df
        .lazy()
        .withColumns(col("x").mul(2).add(col("i")).alias("y"))
        .filter(col("y").gt(col("y").min().add(10)))
        .groupBy("k", { sort: true })
        .agg(...aggs);
      const { result, profile } = await lf.profile();
      const ops = names(profile);
      expect(ops.some((o) => o.startsWith("FILTER"))).toBe(true);
      expect(ops.find((o) => o.startsWith("AGGREGATE"))).toContain("(morsel pipeline)");
      same(result, lf.collectSync({ optimizations: { pipelines: false } }), ["sx", "my"]);
      // The minimum is the whole column's: a per-morsel minimum would keep other rows.
      const y = df.withColumns(col("x").mul(2).add(col("i")).alias("y"));
      const eager = y.filter(col("y").gt((y.getColumn("y").min() as number) + 10)).groupBy("k", { sort: true }).agg(len().alias("n"));
      expect(result.getColumn("n").toArray()).toEqual(eager.getColumn("n").toArray());
    });
  });

  describe("with join probes", () => {
    const n = 150_000;
    const facts = new DataFrame({
      cat: Int32Array.from({ length: n }, (_, r) => (r * 7) % 53),
      x: Float64Array.from({ length: n }, (_, r) => ((r * 13) % 1000) / 8),
      i: Int32Array.from({ length: n }, (_, r) => (r % 97) - 40),
    });
    // 50 of the 53 categories have a row; three names cover them.
    const dims = new DataFrame({
      cat: Int32Array.from({ length: 50 }, (_, c) => c),
      name: Array.from({ length: 50 }, (_, c) => ["north", "south", "east"][c % 3]!),
      w: Float64Array.from({ length: 50 }, (_, c) => 1 + c / 4),
    });
    const agg = [col("i").sum().alias("si"), col("y").sum().alias("sy"), col("x").mean().alias("mx"), col("i").max().alias("mi"), len().alias("n")];
    const cases: [string, () => LazyFrame, string][] = [
      ["inner", () => facts.lazy().join(dims.lazy(), { on: "cat", how: "inner" }).withColumns(col("x").mul(col("w")).alias("y")).groupBy("name", { maintainOrder: true }).agg(...agg), "1 projection(s) and 1 join probe(s)"],
      ["left (unmatched rows group under a null name)", () => facts.lazy().join(dims.lazy(), { on: "cat", how: "left" }).withColumns(col("x").mul(col("w").fillNull(1)).alias("y")).groupBy("name", { maintainOrder: true }).agg(...agg), "1 projection(s) and 1 join probe(s)"],
      ["semi", () => facts.lazy().join(dims.lazy().filter(col("name").eq("east")), { on: "cat", how: "semi" }).withColumns(col("x").mul(2).alias("y")).groupBy(col("cat").mod(4).alias("c4"), { maintainOrder: true }).agg(...agg), "1 projection(s) and 1 join probe(s)"],
      ["anti", () => facts.lazy().join(dims.lazy().filter(col("name").eq("east")), { on: "cat", how: "anti" }).withColumns(col("x").mul(2).alias("y")).groupBy(col("cat").mod(4).alias("c4"), { maintainOrder: true }).agg(...agg), "1 projection(s) and 1 join probe(s)"],
    ];
    it.each(cases)("%s: the probe runs per morsel and gives the operators' answer", async (_, make, below) => {
      const { result, profile } = await make().profile();
      expect(names(profile).find((o) => o.startsWith("AGGREGATE"))).toContain(`(morsel pipeline with the ${below} below)`);
      expect(names(profile).some((o) => o.includes("JOIN"))).toBe(false);
      const off = make().collectSync({ optimizations: { pipelines: false } });
      expect(result.columns).toEqual(off.columns);
      expect(result.dtypes).toEqual(off.dtypes);
      for (const c of result.columns.filter((c) => c !== "sy" && c !== "mx")) expect(result.getColumn(c).toArray(), c).toEqual(off.getColumn(c).toArray());
      for (const c of ["sy", "mx"]) {
        const b = off.getColumn(c).toArray() as number[];
        (result.getColumn(c).toArray() as number[]).forEach((v, r) => expect(v).toBeCloseTo(b[r]!, 6));
      }
      expect(result.height).toBeGreaterThan(1);
    });
    it("take a selective join with few groups: the groups are counted against the rows read", async () => {
      // One category of 53 matches (about 1 row in 53 is left), and 20 groups: more than one
      // group per 8 rows left in the first 4096 rows read, far under one per 8 rows read.
      const one = dims.lazy().filter(col("cat").eq(7));
      const lf = facts
        .lazy()
        .join(one, { on: "cat", how: "inner" })
        .filter(col("x").lt(col("w").mul(60)))
        .groupBy(col("i").mod(20).alias("g"), { sort: true })
        .agg(col("i").sum().alias("si"), col("x").max().alias("mx"), len().alias("n"));
      const { result, profile } = await lf.profile();
      expect(names(profile).find((o) => o.startsWith("AGGREGATE"))).toContain("(morsel pipeline with the 1 filter(s) and 1 join probe(s) below)");
      expect(result.height).toBe(20);
      expectSameFrame(result, lf.collectSync({ optimizations: { pipelines: false } }));
      // The same rows from JS: cat 7 has w = 2.75, so x < 165.
      const n = new Map<number, bigint>();
      facts.toRecords().forEach((r) => {
        const row = r as { cat: number; x: number; i: number };
        const g = (row.i + 40) % 20; // i >= -40; mod is floored
        if (row.cat === 7 && row.x < 165) n.set(g, (n.get(g) ?? 0n) + 1n);
      });
      expect(result.getColumn("n").toArray()).toEqual((result.getColumn("g").toArray() as number[]).map((g) => n.get(g)));
    });
    it("run a join that would build its larger side as an operator, below the pipeline", async () => {
      const big = new DataFrame({ cat: Int32Array.from({ length: 2 * n }, (_, r) => r % 53), z: Float64Array.from({ length: 2 * n }, (_, r) => r % 5) });
      const lf = facts.lazy().join(big.lazy(), { on: "cat", how: "semi" }).groupBy("cat", { sort: true }).agg(col("x").sum(), len());
      const { result, profile } = await lf.profile();
      expect(names(profile).some((o) => o.startsWith("SEMI JOIN"))).toBe(true);
      expect(names(profile).find((o) => o.startsWith("AGGREGATE"))).toContain("(morsel pipeline)");
      expectSameFrame(result, lf.collectSync({ optimizations: { pipelines: false } }));
    });
  });

  it("leave keys and inputs that read other rows to the operators (a per-morsel rank would differ)", async () => {
    const n = 150_000;
    const frame = new DataFrame({ i: Int32Array.from({ length: n }, (_, r) => (r * 7919) % 1000), x: Float64Array.from({ length: n }, (_, r) => r % 17) });
    const lf = frame.lazy().groupBy(col("i").rank({ method: "dense" }).mod(3).alias("g"), { sort: true }).agg(col("x").sum().alias("s"), len());
    const { result, profile } = await lf.profile();
    expect(names(profile).some((o) => o.includes("morsel pipeline"))).toBe(false);
    // dense ranks 1..1000 over the whole column: rank r is the value r - 1, so g = (i + 1) mod 3.
    const want = [0, 1, 2].map((g) => {
      const rows = Array.from({ length: n }, (_, r) => r).filter((r) => (((r * 7919) % 1000) + 1) % 3 === g);
      return { g, s: rows.reduce((a, r) => a + (r % 17), 0), len: BigInt(rows.length) };
    });
    expect(result.toRecords()).toEqual(want);
  });

  describe("ending in a sort with a limit, a topK or a unique", () => {
    const n = 150_000;
    // Few distinct values, so ties decide most of the order; nulls in both.
    const facts = new DataFrame({
      cat: Int32Array.from({ length: n }, (_, r) => (r * 7) % 53),
      x: Array.from({ length: n }, (_, r) => (r % 11 === 0 ? null : ((r * 13) % 40) / 4)),
      i: Int32Array.from({ length: n }, (_, r) => (r % 97) - 40),
      s: Array.from({ length: n }, (_, r) => (r % 29 === 0 ? null : `s${(r * 31) % 7}`)),
    });
    const dims = new DataFrame({ cat: Int32Array.from({ length: 50 }, (_, c) => c), w: Float64Array.from({ length: 50 }, (_, c) => 1 + (c % 4)) });
    const cases: [string, () => LazyFrame, string][] = [
      ["sort desc, head", () => facts.lazy().withColumns(col("x").mul(2).alias("y")).sort("y", { descending: true }).head(7), 'SORT BY col("y") DESC LIMIT 7 (morsel pipeline with the 1 projection(s) below)'],
      ["two keys, nulls first, after a join and a filter", () => facts.lazy().join(dims.lazy(), { on: "cat" }).filter(col("i").gt(col("w").mul(-10))).withColumns(col("x").mul(col("w")).alias("y")).sort(["s", "y"], { descending: [false, true], nullsLast: false }).head(40), "(morsel pipeline with the 1 projection(s), 1 filter(s) and 1 join probe(s) below)"],
      ["a slice after the sort", () => facts.lazy().filter(col("i").lt(50)).sort(["x", "i"]).slice(3, 12), "LIMIT 15 (morsel pipeline)"],
      ["topK", () => facts.lazy().withColumns(col("x").add(col("i")).alias("y")).topK(25, "y"), "(morsel pipeline with the 1 projection(s) below)"],
      ["bottomK after a join", () => facts.lazy().join(dims.lazy(), { on: "cat" }).bottomK(30, col("x").mul(col("w"))), "(morsel pipeline with the 1 join probe(s) below)"],
    ];
    it.each(cases)("%s: each morsel's first rows, sorted again, are the operators' rows in their order", async (_, make, label) => {
      const { result, profile } = await make().profile();
      const sink = names(profile).find((o) => o.includes("morsel pipeline"));
      expect(sink).toContain(label);
      expect(names(profile).some((o) => o.includes("JOIN") || o.startsWith("FILTER"))).toBe(false);
      const off = make().collectSync({ optimizations: { pipelines: false } });
      expect(names((await make().profile({ optimizations: { pipelines: false } })).profile).some((o) => o.includes("morsel pipeline"))).toBe(false);
      expectSameFrame(result, off);
      expect(result.height).toBeGreaterThan(5);
    });
    it.each(["first", "last", "any"] as const)("unique keep %s: each morsel's kept rows, kept again, are the operator's rows in input order", async (keep) => {
      const make = () =>
        facts
          .lazy()
          .join(dims.lazy(), { on: "cat" })
          .withColumns(col("w").mul(2).alias("w2"))
          .unique({ subset: ["s", "w2"], keep, maintainOrder: true });
      const { result, profile } = await make().profile();
      expect(names(profile).find((o) => o.includes("morsel pipeline"))).toContain("(morsel pipeline with the 1 projection(s) and 1 join probe(s) below)");
      expectSameFrame(result, make().collectSync({ optimizations: { pipelines: false } }));
      // From JS: each (s, w2)'s first / last row among the joined rows (facts order; every cat
      // under 50 has one dims row).
      const f = facts.toRecords() as { cat: number; x: number | null; i: number; s: string | null }[];
      const at = new Map<string, number>();
      f.forEach((r, k) => {
        if (r.cat >= 50) return;
        const key = `${r.s}|${2 * (1 + (r.cat % 4))}`;
        if (keep === "last" || !at.has(key)) at.set(key, k);
      });
      const rows = [...at.values()].sort((a, b) => a - b);
      expect(result.getColumn("i").toArray()).toEqual(rows.map((k) => f[k]!.i));
      expect(result.getColumn("x").toArray()).toEqual(rows.map((k) => f[k]!.x));
    });
    it("unique without maintainOrder keeps the operator's rows; keep none and many distinct rows go to the operator", async () => {
      const plain = facts.lazy().withColumns(col("i").mod(7).alias("i7")).unique({ subset: ["s", "i7"] });
      const { result, profile } = await plain.profile();
      expect(names(profile).find((o) => o.includes("morsel pipeline"))).toContain("(morsel pipeline with the 1 projection(s) below)");
      const off = plain.collectSync({ optimizations: { pipelines: false } });
      expect(result.height).toBe(off.height);
      expectSameFrame(result.sort(["s", "i7"]), off.sort(["s", "i7"]));
      for (const lf of [
        facts.lazy().withColumns(col("i").mod(7).alias("i7")).unique({ subset: ["s", "i7"], keep: "none", maintainOrder: true }),
        facts.lazy().withColumns(col("x").add(col("i")).alias("y")).unique({ subset: ["cat", "y"], keep: "first", maintainOrder: true }),
      ]) {
        const { result: r, profile: p } = await lf.profile();
        expect(names(p).some((o) => o.includes("morsel pipeline"))).toBe(false);
        expectSameFrame(r, lf.collectSync({ optimizations: { pipelines: false } }));
      }
    });
    it("match a JS stable sort, ties in input order", () => {
      const got = facts.lazy().withColumns(col("x").mul(2).alias("y")).sort("y", { descending: true }).head(50).collectSync();
      const x = facts.getColumn("x").toArray() as (number | null)[];
      const rows = Array.from({ length: n }, (_, r) => r).filter((r) => x[r] !== null);
      rows.sort((a, b) => x[b]! - x[a]! || a - b); // nulls last: 50 non-null rows come first
      expect(got.getColumn("i").toArray()).toEqual(rows.slice(0, 50).map((r) => (r % 97) - 40));
      expect(got.getColumn("y").toArray()).toEqual(rows.slice(0, 50).map((r) => x[r]! * 2));
    });
    it("leave a large limit, a grouped topK and a `by` that reads other rows to the operators", async () => {
      const lfs = [
        facts.lazy().withColumns(col("x").mul(2).alias("y")).sort("y").head(5000),
        facts.lazy().withColumns(col("x").mul(2).alias("y")).groupBy("cat", { sort: true }).topK(2, "y"),
        facts.lazy().withColumns(col("x").mul(2).alias("y")).topK(5, col("y").sub(col("y").mean()).abs()),
      ];
      for (const lf of lfs) {
        const { result, profile } = await lf.profile();
        expect(names(profile).some((o) => o.includes("morsel pipeline"))).toBe(false);
        expectSameFrame(result, lf.collectSync({ optimizations: { pipelines: false } }));
      }
    });
    it("raise a morsel's typed error as the operators would", () => {
      const bad = facts.withColumns(col("s").fillNull("s0").alias("t")).withColumns(col("t").str.replace("s6", "s6x").alias("t"));
      const lf = bad.lazy().withColumns(col("t").str.slice(1).cast("int32", { strict: true }).alias("v")).sort("v").head(5);
      const err = (f: () => unknown): Error => {
        try {
          f();
        } catch (e) {
          return e as Error;
        }
        throw new Error("no error");
      };
      const on = err(() => lf.collectSync());
      const off = err(() => lf.collectSync({ optimizations: { pipelines: false } }));
      expect((on as { code?: string }).code).toBe((off as { code?: string }).code);
      expect(on.message).toBe(off.message);
    });
  });

  it.each([10, 140_001])("raise a typed error at row %i as the operators would, naming the whole input's row", (badRow) => {
    const bad = new DataFrame({
      k: Array.from({ length: N }, (_, r) => (r % 3 === 0 ? "a" : "b")),
      s: Array.from({ length: N }, (_, r) => (r === badRow ? "x1" : String(r))),
    });
    const lf = bad.lazy().withColumns(col("s").cast("int64", { strict: true }).alias("v")).groupBy("k").agg(col("v").sum());
    let on: unknown, off: unknown;
    try {
      lf.collectSync();
    } catch (e) {
      on = e;
    }
    try {
      lf.collectSync({ optimizations: { pipelines: false } });
    } catch (e) {
      off = e;
    }
    expect(on).toBeInstanceOf(Error);
    expect((on as { code: string }).code).toBe((off as { code: string }).code);
    expect((on as Error).message).toBe((off as Error).message);
    expect((on as Error).message).toContain(String(badRow));
  });
});
