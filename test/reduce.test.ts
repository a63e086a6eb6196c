import { describe, expect, it } from "vitest";
import { DataFrame, DtypeError, InvalidArgumentError, Series, fromArrow, type DType } from "../src/index.js";
import {
  ALL_DTYPES,
  I64_MAX,
  I64_MIN,
  LENGTHS,
  NULL_PATTERNS,
  U64_MAX,
  makeArrowTable,
  rawColumn,
  sameValue,
  toJsValue,
  type NullPattern,
  type Raw,
} from "./helpers.js";

// ---- Independent references over the raw values (helpers.ts generates them).

const INTS = new Set<DType>(["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]);
const FLOATS = new Set<DType>(["float32", "float64"]);
const isNumeric = (t: DType) => INTS.has(t) || FLOATS.has(t);
const enc = new TextEncoder();

/** <0, 0, >0: value order (strings byte-wise, false < true); NaN is handled by the callers. */
function cmp(a: Exclude<Raw, null>, b: Exclude<Raw, null>): number {
  if (typeof a === "string") return Buffer.compare(enc.encode(a), enc.encode(b as string));
  if (typeof a === "boolean") return Number(a) - Number(b as boolean);
  const x = a as number | bigint;
  const y = b as number | bigint;
  return x < y ? -1 : x > y ? 1 : 0;
}
const isNaNRaw = (v: Raw) => typeof v === "number" && Number.isNaN(v);

function refArg(vals: Raw[], wantMax: boolean): number | null {
  let best = -1;
  for (let i = 0; i < vals.length; i++) {
    const v = vals[i] ?? null;
    if (v === null || isNaNRaw(v)) continue;
    const c = best < 0 ? 0 : cmp(v, vals[best] as Exclude<Raw, null>);
    if (best < 0 || (wantMax ? c > 0 : c < 0)) best = i;
  }
  if (best < 0) best = vals.findIndex((v) => v !== null); // all NaN: the first NaN
  return best < 0 ? null : best;
}

function refQuantile(nums: number[], q: number): number | null {
  if (nums.length === 0) return null;
  const s = [...nums].sort((a, b) => (Number.isNaN(a) ? 1 : Number.isNaN(b) ? -1 : a - b));
  const idx = q * (s.length - 1);
  const lo = Math.floor(idx);
  const hi = Math.ceil(idx);
  const a = s[lo]!;
  const b = s[hi]!;
  if (lo === hi || Object.is(a, b) || a === b) return a;
  return a + (b - a) * (idx - lo);
}

function closeTo(got: unknown, want: number | null, scale: number, rel = 1e-9): boolean {
  if (want === null || !Number.isFinite(want)) return sameValue(got, want);
  return typeof got === "number" && Math.abs(got - want) <= rel * Math.max(1, scale, Math.abs(want));
}

function seriesOf(dtype: DType, length: number, nulls: NullPattern, sliced: boolean): { s: Series; raw: Raw[] } {
  const pad = sliced ? 5 : 0;
  const table = makeArrowTable(length + pad, nulls, [dtype], { dateSafe: true });
  const full = fromArrow(table).getColumn(dtype);
  const raw = rawColumn(dtype, length + pad, nulls, { dateSafe: true });
  if (!sliced) return { s: full, raw };
  return { s: full.slice(3, length), raw: raw.slice(3, 3 + length) };
}

function check(dtype: DType, length: number, nulls: NullPattern, sliced: boolean): string[] {
  const { s, raw } = seriesOf(dtype, length, nulls, sliced);
  const errors: string[] = [];
  const expectEq = (what: string, got: unknown, want: unknown) => {
    if (!sameValue(got, want)) errors.push(`${what}: got ${String(got)}, want ${String(want)}`);
  };
  const expectClose = (what: string, got: unknown, want: number | null, scale: number, rel?: number) => {
    if (!closeTo(got, want, scale, rel)) errors.push(`${what}: got ${String(got)}, want ${String(want)}`);
  };
  const expectDtype = (what: string, fn: () => unknown) => {
    try {
      fn();
      errors.push(`${what}: no DtypeError`);
    } catch (e) {
      if (!(e instanceof DtypeError)) errors.push(`${what}: threw ${String(e)}`);
    }
  };
  const valid = raw.filter((v): v is Exclude<Raw, null> => v !== null);
  const js = (i: number | null) => (i === null ? null : toJsValue(dtype, raw[i]!));

  expectEq("count", s.count(), BigInt(valid.length));
  expectEq("nullCount", s.nullCount, raw.length - valid.length);
  const keys = new Set(valid.map((v) => (typeof v === "number" && v === 0 ? 0 : typeof v === "number" && Number.isNaN(v) ? "NaN" : v)));
  expectEq("nUnique", s.nUnique(), BigInt(keys.size));
  expectEq("first", s.first(), length ? js(raw[0] === null ? null : 0) : null);
  expectEq("last", s.last(), length ? js(raw[length - 1] === null ? null : length - 1) : null);
  const argMin = refArg(raw, false);
  const argMax = refArg(raw, true);
  expectEq("argMin", s.argMin(), argMin === null ? null : BigInt(argMin));
  expectEq("argMax", s.argMax(), argMax === null ? null : BigInt(argMax));
  expectEq("min", s.min(), js(argMin));
  expectEq("max", s.max(), js(argMax));

  if (dtype === "bool") {
    const trues = valid.filter((v) => v === true).length;
    expectEq("sum", s.sum(), BigInt(trues));
    expectClose("mean", s.mean(), valid.length ? trues / valid.length : null, 1);
    expectEq("any", s.any(), trues > 0);
    expectEq("all", s.all(), trues === valid.length);
    for (const [k, f] of [["std", () => s.std()], ["median", () => s.median()]] as const) expectDtype(k, f);
    return errors;
  }
  expectDtype("any", () => s.any());
  expectDtype("all", () => s.all());
  if (dtype.startsWith("duration")) {
    // Durations reduce as their int64 counts and stay durations: the sum wraps exactly; mean,
    // median, quantile and std are computed in float64 and truncated toward zero; var (the
    // unit squared) and product are refused.
    const total = valid.reduce<bigint>((a, v) => a + (v as bigint), 0n);
    expectEq("sum", s.sum(), BigInt.asIntN(64, total));
    const nums = valid.map((v) => Number(v));
    const scale = nums.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    const asNumber = (v: unknown) => (typeof v === "bigint" ? Number(v) : v === null ? null : `not a bigint: ${String(v)}`);
    // The float64 result as a count: truncated, null where it lies beyond int64 (2^63 - 1
    // itself is 2^63 as a float64).
    const count = (x: number | null) => (x === null ? null : Math.trunc(x) >= 2 ** 63 || Math.trunc(x) < -(2 ** 63) ? null : Math.trunc(x));
    const mean = nums.length ? nums.reduce((a, x) => a + x, 0) / nums.length : null;
    expectClose("mean", asNumber(s.mean()), count(mean), scale);
    expectClose("median", asNumber(s.median()), count(refQuantile(nums, 0.5)), scale);
    for (const q of [0, 0.25, 1]) expectClose(`quantile(${q})`, asNumber(s.quantile(q)), count(refQuantile(nums, q)), scale);
    const v = nums.length > 1 ? nums.reduce((a, x) => a + (x - mean!) * (x - mean!), 0) / (nums.length - 1) : null;
    expectClose("std", asNumber(s.std()), count(v === null ? null : Math.sqrt(v)), scale);
    expectDtype("var", () => s.var());
    return errors;
  }
  if (!isNumeric(dtype)) {
    for (const [k, f] of [
      ["sum", () => s.sum()], ["mean", () => s.mean()], ["std", () => s.std()], ["var", () => s.var()],
      ["median", () => s.median()], ["quantile", () => s.quantile(0.5)],
    ] as const) expectDtype(k, f);
    return errors;
  }
  const nums = valid.map((v) => Number(v));
  const scale = nums.reduce((m, x) => (Number.isFinite(x) ? Math.max(m, Math.abs(x)) : m), 0);
  if (INTS.has(dtype)) {
    const total = valid.reduce<bigint>((a, v) => a + BigInt(v as number | bigint), 0n);
    expectEq("sum", s.sum(), dtype.startsWith("u") ? BigInt.asUintN(64, total) : BigInt.asIntN(64, total));
  } else {
    const total = nums.reduce((a, x) => a + x, 0);
    const want = dtype === "float32" ? Math.fround(total) : total;
    expectClose("sum", s.sum(), want, scale * nums.length, dtype === "float32" ? 1e-6 : 1e-9);
  }
  const mean = nums.length ? nums.reduce((a, x) => a + x, 0) / nums.length : null;
  expectClose("mean", s.mean(), mean, scale);
  for (const ddof of [0, 1]) {
    let v: number | null = null;
    if (nums.length > ddof) v = nums.reduce((a, x) => a + (x - mean!) * (x - mean!), 0) / (nums.length - ddof);
    expectClose(`var(${ddof})`, s.var(ddof), v, scale * scale);
    expectClose(`std(${ddof})`, s.std(ddof), v === null ? null : Math.sqrt(v), scale);
  }
  expectClose("median", s.median(), refQuantile(nums, 0.5), scale);
  for (const q of [0, 0.1, 0.25, 0.75, 1]) expectClose(`quantile(${q})`, s.quantile(q), refQuantile(nums, q), scale);
  return errors;
}

describe("reductions: every kind x dtype x null pattern x length, plain and sliced", () => {
  for (const dtype of ALL_DTYPES) {
    it(dtype, () => {
      const failures: string[] = [];
      for (const length of LENGTHS)
        for (const nulls of NULL_PATTERNS)
          for (const sliced of [false, true]) {
            if (length === 100_003 && (nulls !== "some" || sliced)) continue; // one big case per dtype
            for (const e of check(dtype, length, nulls, sliced)) failures.push(`len=${length} ${nulls} sliced=${sliced}: ${e}`);
          }
      expect(failures.slice(0, 10)).toEqual([]);
    });
  }
});

describe("reductions: rules", () => {
  it("NaN: sum/mean propagate, min/max ignore unless all NaN, median sorts NaN last", () => {
    const s = new Series("f", [1, NaN, 3]);
    expect(s.sum()).toBeNaN();
    expect(s.mean()).toBeNaN();
    expect(s.max()).toBe(3);
    expect(s.min()).toBe(1);
    expect(s.argMax()).toBe(2n);
    expect(s.median()).toBe(3);
    expect(new Series("f", [NaN, NaN]).max()).toBeNaN();
    expect(new Series("f", [NaN, NaN]).argMin()).toBe(0n);
    expect(new Series("f", [-Infinity, NaN]).max()).toBe(-Infinity);
    expect(new Series("f", [Infinity, -Infinity]).sum()).toBeNaN();
    expect(new Series("f", [NaN, -NaN, 0, -0]).nUnique()).toBe(2n);
  });

  it("int64 extremes wrap in sum; min/max are exact", () => {
    const s = new Series("i", [I64_MAX, 1n]);
    expect(s.sum()).toBe(I64_MIN);
    expect(new Series("i", [I64_MIN, -1n]).sum()).toBe(I64_MAX);
    expect(new Series("i", [I64_MIN, I64_MAX]).min()).toBe(I64_MIN);
    expect(new Series("u", [U64_MAX, 2n], "uint64").sum()).toBe(1n);
    expect(new Series("i8", new Int8Array([100, 100])).sum()).toBe(200n);
  });

  it("empty, all-null, ddof", () => {
    const e = new Series("e", [], "int32");
    expect(e.sum()).toBe(0n);
    expect([e.mean(), e.min(), e.std(), e.median(), e.first(), e.argMax()]).toEqual([null, null, null, null, null, null]);
    expect(new Series("n", [null, null]).sum()).toBe(0);
    expect(new Series("f", [4]).var()).toBeNull();
    expect(new Series("f", [4]).var(0)).toBe(0);
    expect(new Series("f", [1, 2, 3, 4]).std()).toBeCloseTo(1.2909944487358056, 15);
    expect(new Series("f", [1, 2, 3, 4]).quantile(0.25)).toBe(1.75);
  });

  it("bool: Kleene any/all ignoring nulls; false < true", () => {
    expect(new Series("b", [null, false]).any()).toBe(false);
    expect(new Series("b", [null, true]).all()).toBe(true);
    expect(new Series("b", [], "bool").all()).toBe(true);
    expect(new Series("b", [true, null, false]).min()).toBe(false);
    expect(new Series("b", [true, true, false]).mean()).toBeCloseTo(2 / 3, 15);
  });

  it("strings: byte-wise order, non-ASCII", () => {
    const s = new Series("s", ["b", "é", null, "a", "日本"]);
    expect(s.max()).toBe("日本");
    expect(s.min()).toBe("a");
    expect(s.argMax()).toBe(4n);
    expect(s.nUnique()).toBe(4n);
  });

  it("bad arguments and dtypes", () => {
    const s = new Series("f", [1, 2]);
    expect(() => s.quantile(1.5)).toThrow(InvalidArgumentError);
    expect(() => s.quantile(NaN)).toThrow(InvalidArgumentError);
    expect(() => s.std(-1)).toThrow(InvalidArgumentError);
    expect(() => s.var(0.5)).toThrow(InvalidArgumentError);
    expect(() => new Series("s", ["a"]).mean()).toThrow(DtypeError);
    expect(() => new Series("s", ["a"]).sum()).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    expect(() => s.any()).toThrow(DtypeError);
    const d = s.slice(0);
    d.dispose();
    expect(() => d.sum()).toThrow(expect.objectContaining({ code: "ERR_DISPOSED" }));
  });
});

describe("valueCounts", () => {
  it("sorted by count desc, then value asc, null last among ties", () => {
    const s = new Series("v", [3, 1, null, 1, 3, null, 2, -0, NaN, NaN]);
    const vc = s.valueCounts();
    expect(vc.columns).toEqual(["v", "count"]);
    expect(vc.dtypes).toEqual(["float64", "int64"]);
    const rows = vc.toRecords();
    expect(rows.map((r) => r["count"])).toEqual([2n, 2n, 2n, 2n, 1n, 1n]);
    expect(rows.map((r) => r["v"])).toEqual([1, 3, NaN, null, 0, 2]);
  });

  it("unsorted: value order, null last; strings; empty; slices", () => {
    const s = new Series("v", ["b", "a", null, "b", "ü", "a"]);
    expect(s.valueCounts({ sort: false }).toRecords()).toEqual([
      { v: "a", count: 2n }, { v: "b", count: 2n }, { v: "ü", count: 1n }, { v: null, count: 1n },
    ]);
    expect(s.slice(3).valueCounts().toRecords()).toEqual([{ v: "a", count: 1n }, { v: "b", count: 1n }, { v: "ü", count: 1n }]);
    const e = new Series("e", [], "date32").valueCounts();
    expect([e.height, e.dtypes]).toEqual([0, ["date32", "int64"]]);
    expect(() => new Series("count", [1]).valueCounts()).toThrow(InvalidArgumentError);
  });

  it("large input: counts add up and match a Map", () => {
    const n = 100_003;
    const vals = Array.from({ length: n }, (_, i) => (i % 17 === 0 ? null : (i * 7919) % 1000));
    const vc = new Series("x", vals).valueCounts().toRecords();
    const ref = new Map<unknown, bigint>();
    for (const v of vals) ref.set(v, (ref.get(v) ?? 0n) + 1n);
    expect(vc.length).toBe(ref.size);
    for (const r of vc) expect(r["count"]).toBe(ref.get(r["x"]));
    for (let i = 1; i < vc.length; i++) expect((vc[i - 1]!["count"] as bigint) >= (vc[i]!["count"] as bigint)).toBe(true);
  });

  it("works on a frame's column and leaves it intact", () => {
    const df = new DataFrame({ a: [1, 1, 2] });
    const vc = df.getColumn("a").valueCounts();
    expect(vc.toRecords()).toEqual([{ a: 1, count: 2n }, { a: 2, count: 1n }]);
    expect(df.getColumn("a").toArray()).toEqual([1, 1, 2]);
  });
});
