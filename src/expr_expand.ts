/**
 * Expression expansion against a schema, run by every verb before it names or evaluates its
 * expressions: a selector leaf (src/selectors.ts; `col("^re$")`, `col("a", "b")`, `all()`,
 * `exclude(...)`) makes one expression per column it selects, and `.name.*` renamings become
 * aliases. Expanded expressions hold only ops the native compiler knows.
 */
import { dtypeOfId, typeIdOf, type DType } from "./dtypes.js";
import { InvalidArgumentError } from "./errors.js";
import { Expr, outputName, type ExprNode } from "./expr.js";
import { memoisedPredicate, nodeKey, rewrite } from "./expr_tree.js";
import { ensureDevice } from "./device.js";
import { native, type ColumnHandle } from "./native/addon.js";
import { dtypeOfHandle } from "./zones.js";
import { DTYPE_GROUPS, isRegexName, selectorNode } from "./selector_nodes.js";
import { columnNotFound } from "./suggest.js";

/** The names and dtypes expressions are expanded against. */
export interface ExpandSchema {
  readonly names: readonly string[];
  readonly dtypes: readonly DType[];
}

/** Which names the regex finds a match in, by the native regex engine (str.contains). */
function regexMatches(names: readonly string[], pattern: string): boolean[] {
  if (names.length === 0) return [];
  ensureDevice();
  const column = native.fromValues([...names], typeIdOf("utf8"));
  try {
    const nodes = [
      { op: "col", args: [], name: "n" },
      { op: "str.contains", args: [0], value: pattern, params: [0, 1] },
    ];
    const out = native.evalExpr(nodes, ["n"], [column], names.length);
    try {
      return native.toValues(out, 0, names.length).map((v) => v === true);
    } finally {
      out.dispose();
    }
  } finally {
    column.dispose();
  }
}

/** The columns a selector node selects, in its order (frame order, byName: the order given). */
export function selectedColumns(node: ExprNode, schema: ExpandSchema): string[] {
  const { names, dtypes } = schema;
  const where = (keep: (name: string, i: number) => boolean): string[] => names.filter(keep);
  const texts = (node.list ?? []) as string[];
  const kind = node.name as string;
  const group = DTYPE_GROUPS[kind];
  if (group) return where((_, i) => group.includes(dtypes[i] as DType));
  switch (kind) {
    case "all":
      return [...names];
    case "byDtype": {
      const wanted = new Set((node.params ?? []).map((id) => dtypeOfId(id)));
      return where((_, i) => wanted.has(dtypes[i] as DType));
    }
    case "byName":
      for (const n of texts) if (!names.includes(n)) throw columnNotFound(n, names);
      return [...new Set(texts)];
    case "nameOrDtype": {
      const t = texts[0] as string;
      return names.includes(t) ? [t] : where((_, i) => dtypes[i] === t);
    }
    case "startsWith":
      return where((n) => texts.some((t) => n.startsWith(t)));
    case "endsWith":
      return where((n) => texts.some((t) => n.endsWith(t)));
    case "contains":
      return where((n) => texts.some((t) => n.includes(t)));
    case "matches": {
      const hit = regexMatches(names, texts[0] as string);
      return where((_, i) => hit[i] === true);
    }
    case "first":
      return names.slice(0, 1);
    case "last":
      return names.slice(-1);
    default: {
      const a = new Set(selectedColumns(node.args[0] as ExprNode, schema));
      const b = new Set(selectedColumns(node.args[1] as ExprNode, schema));
      const keep: Record<string, (n: string) => boolean> = {
        or: (n) => a.has(n) || b.has(n),
        and: (n) => a.has(n) && b.has(n),
        sub: (n) => a.has(n) && !b.has(n),
        xor: (n) => a.has(n) !== b.has(n),
      };
      const rule = keep[kind];
      if (!rule) throw new InvalidArgumentError(`unknown selector "${kind}"`);
      return where(rule);
    }
  }
}

/**
 * The selector leaves of a tree (outermost selector nodes; their set-operation children are
 * theirs). A selector among sortBy keys or over() partition / order keys would stand for several
 * keys, not several expressions: refused.
 */
function selectorsIn(root: ExprNode): ExprNode[] {
  const found: ExprNode[] = [];
  const seen = [new Set<ExprNode>(), new Set<ExprNode>()];  // visited as a value, as a key
  const visit = (n: ExprNode, asKey: boolean): void => {
    if (n.op === "selector") {
      if (asKey) throw new InvalidArgumentError("selectors are not supported as sortBy or over() keys; name the key columns");
      found.push(n);
      return;
    }
    const visited = seen[asKey ? 1 : 0] as Set<ExprNode>;
    if (visited.has(n)) return;
    visited.add(n);
    const keysFrom = n.op === "sortBy" || n.op === "over" ? 1 : n.args.length;
    n.args.forEach((a, i) => visit(a, asKey || i >= keysFrom));
  };
  visit(root, false);
  return found;
}

/** The ops that give several columns: str.splitExact / splitN (one per field) and str.extractGroups (one per group). */
const MULTI = new Set(["str.splitExact", "str.splitN", "str.extractGroups"]);

/** True when the tree needs expanding (a selector, a `.name` renaming or a multi-column op). */
const needsExpansion = memoisedPredicate(
  (n, ask) => n.op === "selector" || n.op === "name" || MULTI.has(n.op) || n.args.some(ask),
);

/** True when the tree holds a multi-column op. */
const hasMulti = memoisedPredicate((n, ask) => MULTI.has(n.op) || n.args.some(ask));

/** The parts of a multi-column op, each one expression: [op node, params, name]. */
function multiParts(root: ExprNode): [string, number[], string][] {
  if (root.op === "str.extractGroups") {
    ensureDevice();
    const groups = native.regexGroups(root.value as string);
    if (groups.length === 0) throw new InvalidArgumentError(`str.extractGroups: the pattern ${JSON.stringify(root.value)} has no capture group`);
    return groups.map((name, k) => ["str.extract", [k + 1], name === "" ? String(k + 1) : name]);
  }
  // A split: str.splitPart of field k (params: k, then 1 inclusive / 2 the rest of the string).
  const [n, inclusive] = root.params as number[];
  const rest = root.op === "str.splitN";
  return (root.list as string[]).map((name, k) => {
    const mode = rest && k === (n as number) - 1 ? 2 : inclusive === 1 ? 1 : 0;
    return ["str.splitPart", [k, mode], name];
  });
}

/** A multi-column op at the root made one named expression per part; one anywhere else is refused. */
function multiColumns(expr: Expr): Expr[] {
  const root = expr.node;
  if (MULTI.has(root.op)) {
    return multiParts(root).map(([op, params, name]) => {
      const part: ExprNode = { op, args: root.args, value: root.value as string, params };
      return new Expr({ op: "alias", args: [part], name });
    });
  }
  if (hasMulti(root)) {
    throw new InvalidArgumentError(
      `${expr.toString()}: str.splitExact / splitN / extractGroups give several columns and must be the whole expression (name split columns with { names })`,
    );
  }
  return [expr];
}

/** The name of the column an expression starts from: its leftmost column, aliases ignored. */
function rootName(node: ExprNode): string {
  for (let n = node; ; ) {
    if (n.op === "col") return n.name as string;
    const next = n.op === "when" ? n.args[1] : n.args[0];
    if (next === undefined) return outputName(n);
    n = next;
  }
}

const RENAMES: Record<string, (name: string, text: string) => string> = {
  keep: (n) => n,
  prefix: (n, t) => t + n,
  suffix: (n, t) => n + t,
  toUppercase: (n) => n.toUpperCase(),
  toLowercase: (n) => n.toLowerCase(),
};

/**
 * The tree with each selector node `pick` says to replaced by `col(column)`, and each `.name`
 * renaming made an alias of the name it gives.
 */
function substitute(root: ExprNode, pick: (n: ExprNode) => boolean, column: string): ExprNode {
  return rewrite(root, (n) => {
    if (pick(n)) return { op: "col", args: [], name: column };
    if (n.op !== "name") return n;
    const inner = n.args[0] as ExprNode;
    const rename = RENAMES[n.name as string] as (name: string, text: string) => string;
    return { op: "alias", args: [inner], name: rename(rootName(inner), (n.list?.[0] ?? "") as string) };
  });
}

/** One expression's expansion: an Expr per selected column (none for an empty selection), multi-column ops made one per column. */
export function expandExpr(expr: Expr, schema: ExpandSchema): Expr[] {
  if (!needsExpansion(expr.node)) return [expr];
  return expandSelectors(expr, schema).flatMap(multiColumns);
}

function expandSelectors(expr: Expr, schema: ExpandSchema): Expr[] {
  const leaves = selectorsIn(expr.node);
  const memo = new Map<ExprNode, string>();
  const distinct = new Set(leaves.map((l) => nodeKey(l, memo)));
  if (distinct.size > 1) {
    throw new InvalidArgumentError(`${expr.toString()}: an expression may expand one selector (or several equal ones), not ${distinct.size} different ones`);
  }
  if (leaves.length === 0) return [new Expr(substitute(expr.node, () => false, ""))];
  // Equal selectors in one expression select the same column each time.
  const isLeaf = (n: ExprNode): boolean => n.op === "selector" && leaves.includes(n);
  return selectedColumns(leaves[0] as ExprNode, schema).map((c) => new Expr(substitute(expr.node, isLeaf, c)));
}

/** Every expression expanded, in order. */
export function expandExprs(exprs: readonly Expr[], schema: ExpandSchema): Expr[] {
  return exprs.flatMap((e) => expandExpr(e, schema));
}

/** select's items expanded: names stay names, a "^...$" name is a regex, selectors expand. */
export function expandItems(items: readonly (string | Expr)[], schema: ExpandSchema): (string | Expr)[] {
  return items.flatMap((it): (string | Expr)[] =>
    it instanceof Expr ? expandExpr(it, schema) : isRegexName(it) ? selectedColumns(selectorNode("matches", { list: [it] }), schema) : [it],
  );
}

/** A filter's predicate expanded: several columns are ANDed (as Polars' filter of several predicates). */
export function expandPredicate(expr: Expr, schema: ExpandSchema): Expr {
  const parts = expandExpr(expr, schema);
  if (parts.length === 0) throw new InvalidArgumentError(`filter: ${expr.toString()} selects no column`);
  return parts.reduce((acc, p) => acc.and(p));
}

/** A frame's schema from its handles. */
export function schemaOfHandles(names: readonly string[], columns: readonly ColumnHandle[]): ExpandSchema {
  return { names, dtypes: columns.map(dtypeOfHandle) };
}
