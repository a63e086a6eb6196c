/**
 * Series parity with Expr: every element-wise Expr method, and the `.str` and `.dt` namespaces,
 * as Series methods. Each runs the Expr over a frame of this Series (and any Series operands,
 * which must have the same length), so Series and Expr share one implementation natively.
 */
import { InvalidArgumentError } from "./errors.js";
import { col, Expr } from "./expr.js";
import type { ExprString } from "./expr_namespaces.js";
import type { ExprDateTime } from "./expr_datetime.js";
import { evaluate } from "./ops/select.js";
import { HandleBox, Series } from "./series.js";

/** An Expr method as a Series method: Series operands allowed where Exprs are. */
export type AsSeries<F> = F extends (...args: infer A) => Expr ? (...args: { [K in keyof A]: A[K] | Series }) => Series : never;
/** The `.str` / `.dt` namespace of Series: each Expr namespace method, on Series. */
export type SeriesNamespace<T> = { [K in keyof T]: AsSeries<T[K]> };

const ELEMENTWISE = [
  "add", "sub", "mul", "div", "floorDiv", "mod", "pow", "neg", "eq", "neq", "lt", "lte", "gt", "gte",
  "and", "or", "xor", "not", "isNull", "isNotNull", "isNaN", "fillNull", "fillNaN", "isIn", "isBetween",
  "cast", "abs", "round", "floor", "ceil", "sqrt", "exp", "log",
  // Not element-wise, but over the whole Series all the same (they read neighbouring rows).
  "forwardFill", "backwardFill", "interpolate", "clip", "replace", "replaceStrict",
] as const;
type Elementwise = (typeof ELEMENTWISE)[number];

declare module "./series.js" {
  interface Series {
    add: AsSeries<Expr["add"]>;
    sub: AsSeries<Expr["sub"]>;
    mul: AsSeries<Expr["mul"]>;
    div: AsSeries<Expr["div"]>;
    floorDiv: AsSeries<Expr["floorDiv"]>;
    mod: AsSeries<Expr["mod"]>;
    pow: AsSeries<Expr["pow"]>;
    neg: AsSeries<Expr["neg"]>;
    eq: AsSeries<Expr["eq"]>;
    neq: AsSeries<Expr["neq"]>;
    lt: AsSeries<Expr["lt"]>;
    lte: AsSeries<Expr["lte"]>;
    gt: AsSeries<Expr["gt"]>;
    gte: AsSeries<Expr["gte"]>;
    and: AsSeries<Expr["and"]>;
    or: AsSeries<Expr["or"]>;
    xor: AsSeries<Expr["xor"]>;
    not: AsSeries<Expr["not"]>;
    isNull: AsSeries<Expr["isNull"]>;
    isNotNull: AsSeries<Expr["isNotNull"]>;
    isNaN: AsSeries<Expr["isNaN"]>;
    fillNull: AsSeries<Expr["fillNull"]>;
    fillNaN: AsSeries<Expr["fillNaN"]>;
    isIn: AsSeries<Expr["isIn"]>;
    isBetween: AsSeries<Expr["isBetween"]>;
    cast: AsSeries<Expr["cast"]>;
    abs: AsSeries<Expr["abs"]>;
    round: AsSeries<Expr["round"]>;
    floor: AsSeries<Expr["floor"]>;
    ceil: AsSeries<Expr["ceil"]>;
    sqrt: AsSeries<Expr["sqrt"]>;
    exp: AsSeries<Expr["exp"]>;
    log: AsSeries<Expr["log"]>;
    forwardFill: AsSeries<Expr["forwardFill"]>;
    backwardFill: AsSeries<Expr["backwardFill"]>;
    interpolate: AsSeries<Expr["interpolate"]>;
    clip: AsSeries<Expr["clip"]>;
    replace: AsSeries<Expr["replace"]>;
    replaceStrict: AsSeries<Expr["replaceStrict"]>;
    /** String functions, as Expr.str. @example new Series("s", [" a "]).str.strip().toArray() */
    readonly str: SeriesNamespace<ExprString>;
    /** Date/time functions, as Expr.dt. @example s.dt.year() */
    readonly dt: SeriesNamespace<ExprDateTime>;
  }
}

/** Runs build(col(this), operands) over this Series and its Series operands; named as this. */
function apply(self: Series, args: readonly unknown[], build: (e: Expr, args: unknown[]) => Expr): Series {
  const names = ["__self"];
  const columns = [self.shareHandle()];
  try {
    const operands = args.map((a) => {
      if (!(a instanceof Series)) return a;
      if (a.length !== self.length) {
        throw new InvalidArgumentError(`a Series operand has ${a.length} values, this Series ${self.length}`);
      }
      names.push(`__arg${names.length}`);
      columns.push(a.shareHandle());
      return col(names[names.length - 1] as string);
    });
    const expr = build(col("__self"), operands);
    // An aggregation (str.join) gives one value, as Polars' Series.str.join.
    const rows = expr.node.op === "agg" ? 1 : self.length;
    const out = evaluate({ names, columns, height: self.length }, expr, rows);
    return new Series(self.name, new HandleBox(out));
  } finally {
    for (const c of columns) c.dispose();
  }
}

export { apply as applyToSeries };

for (const m of ELEMENTWISE) {
  Object.defineProperty(Series.prototype, m, {
    value: function (this: Series, ...args: unknown[]): Series {
      return apply(this, args, (e, a) => (e[m as Elementwise] as (...x: unknown[]) => Expr).apply(e, a));
    },
    writable: true,
    configurable: true,
  });
}

for (const ns of ["str", "dt"] as const) {
  Object.defineProperty(Series.prototype, ns, {
    get(this: Series) {
      return new Proxy(
        {},
        {
          get: (_t, key) => {
            if (typeof key !== "string" || typeof (col("x")[ns] as unknown as Record<string, unknown>)[key] !== "function") return undefined;
            return (...args: unknown[]) =>
              apply(this, args, (e, a) => {
                const space = e[ns] as unknown as Record<string, (...x: unknown[]) => Expr>;
                return (space[key] as (...x: unknown[]) => Expr).apply(space, a);
              });
          },
        },
      );
    },
    configurable: true,
  });
}
