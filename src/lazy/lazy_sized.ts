/**
 * A lazy select whose items read nothing of the frame and hold an intRange with a constant end
 * (`lf.select(intRange(0, 5).alias("i"), lit(1))`): its rows do not depend on the data, so it is
 * a source computed at collect by DataFrame.select over the input's first zero rows.
 */
import { Expr } from "../expr.js";
import { withRanges } from "../expr_sized.js";
import { checkUniqueNames } from "../ops/frame.js";
import { eagerSource } from "./collect.js";
import { LazyFrame } from "./lazy_frame.js";
import { typeOf, type LogicalPlan, type NamedNode } from "./plan.js";

export function rangeSelect(emptyInput: LogicalPlan, exprs: readonly NamedNode[]): LazyFrame {
  checkUniqueNames(
    exprs.map((e) => e.name),
    "; use alias()",
  );
  const schema = { names: exprs.map((e) => e.name), dtypes: exprs.map((e) => typeOf(withRanges(e.node), emptyInput.schema)) };
  const items = exprs.map((e) => new Expr(e.node).alias(e.name));
  return LazyFrame.scan(eagerSource(emptyInput, "SELECT of ranges", (df) => df.select(items)), schema);
}
