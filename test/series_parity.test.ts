// Series parity with Expr: the element-wise methods and the .str / .dt namespaces on a Series give
// what the same Expr gives in select(), including Series operands, and every method of the Expr
// namespaces exists on the Series ones.
import { describe, expect, it } from "vitest";
import { col, DataFrame, Expr, Series } from "../src/index.js";
import { expectCode } from "./helpers.js";

const df = new DataFrame({
  x: [1.5, -2, null, 4, 0],
  y: [3, 1, 2, null, 5],
  b: [true, false, null, true, false],
  s: [" Ab ", "ß", null, "2024-01-31", "x-y"],
});
const viaExpr = (e: Expr) => df.select(e.alias("o")).getColumn("o");
const S = (name: string) => df.getColumn(name);

describe("Series element-wise methods", () => {
  const cases: [string, (s: Series, o: Series) => Series, (e: Expr, o: Expr) => Expr][] = [
    ["add series", (s, o) => s.add(o), (e, o) => e.add(o)],
    ["sub scalar", (s) => s.sub(1), (e) => e.sub(1)],
    ["mul", (s, o) => s.mul(o), (e, o) => e.mul(o)],
    ["div", (s, o) => s.div(o), (e, o) => e.div(o)],
    ["floorDiv", (s) => s.floorDiv(2), (e) => e.floorDiv(2)],
    ["mod", (s) => s.mod(3), (e) => e.mod(3)],
    ["pow", (s) => s.pow(2), (e) => e.pow(2)],
    ["neg", (s) => s.neg(), (e) => e.neg()],
    ["eq", (s, o) => s.eq(o), (e, o) => e.eq(o)],
    ["lt", (s) => s.lt(2), (e) => e.lt(2)],
    ["gte", (s, o) => s.gte(o), (e, o) => e.gte(o)],
    ["isNull", (s) => s.isNull(), (e) => e.isNull()],
    ["isNotNull", (s) => s.isNotNull(), (e) => e.isNotNull()],
    ["fillNull", (s) => s.fillNull(7), (e) => e.fillNull(7)],
    ["isIn", (s) => s.isIn([1.5, 4]), (e) => e.isIn([1.5, 4])],
    ["isBetween", (s) => s.isBetween(0, 3), (e) => e.isBetween(0, 3)],
    ["cast", (s) => s.cast("int32"), (e) => e.cast("int32")],
    ["abs", (s) => s.abs(), (e) => e.abs()],
    ["round", (s) => s.round(0), (e) => e.round(0)],
    ["sqrt", (s) => s.sqrt(), (e) => e.sqrt()],
  ];
  for (const [label, viaSeries, expr] of cases) {
    it(label, () => {
      const got = viaSeries(S("x"), S("y"));
      const want = viaExpr(expr(col("x"), col("y")));
      expect(got.name).toBe("x");
      expect(got.dtype).toBe(want.dtype);
      expect(got.toArray()).toEqual(want.toArray());
    });
  }
  it("logic on bool Series", () => {
    const b = S("b");
    expect(b.not().toArray()).toEqual([false, true, null, false, true]);
    expect(b.and(b.not()).toArray()).toEqual(viaExpr(col("b").and(col("b").not())).toArray());
    expect(b.xor(true).toArray()).toEqual(viaExpr(col("b").xor(true)).toArray());
    expect(new Series("m", [true, false]).not().toArray()).toEqual([false, true]);
  });
  it("rejects operands of another length and disposed Series", () => {
    expectCode(() => S("x").add(new Series("z", [1, 2])), "ERR_INVALID_ARGUMENT");
    const d = new Series("d", [1, 2]);
    d.dispose();
    expectCode(() => d.add(1), "ERR_DISPOSED");
    expectCode(() => S("s").add(1), "ERR_DTYPE");
  });
});

describe("Series .str and .dt", () => {
  it("give what the Expr namespaces give", () => {
    const s = S("s");
    expect(s.str.strip().toArray()).toEqual(viaExpr(col("s").str.strip()).toArray());
    expect(s.str.toUpperCase().toArray()).toEqual([" AB ", "SS", null, "2024-01-31", "X-Y"]);
    expect(s.str.padStart(5, "*").toArray()).toEqual(viaExpr(col("s").str.padStart(5, "*")).toArray());
    expect(s.str.like("%-%").toArray()).toEqual(viaExpr(col("s").str.like("%-%")).toArray());
    const d = s.str.toDate("%Y-%m-%d", { strict: false });
    expect(d.dtype).toBe("date32");
    expect(d.dt.offsetBy("1mo").dt.toString().toArray()).toEqual([null, null, null, "2024-02-29", null]);
    expect(d.dt.year().toArray()).toEqual([null, null, null, 2024, null]);
  });
  it("have every method of the Expr namespaces", () => {
    const e = col("s");
    for (const ns of ["str", "dt"] as const) {
      const proto = Object.getPrototypeOf(e[ns]) as object;
      const names = Object.getOwnPropertyNames(proto).filter((n) => n !== "constructor");
      expect(names.length).toBeGreaterThan(5);
      for (const n of names) expect(typeof (S("s")[ns] as unknown as Record<string, unknown>)[n]).toBe("function");
    }
  });
});
