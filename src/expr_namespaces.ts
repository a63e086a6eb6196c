/**
 * The `.str` namespace of Expr (`.dt` is in src/expr_datetime.ts). They build nodes only; types
 * are checked natively.
 */
import { type DType } from "./dtypes.js";
import { checkZone, dtypeFields } from "./expr_zones.js";
import { InvalidArgumentError } from "./errors.js";
import type { Expr, ExprNode } from "./expr.js";

/** Makes an Expr of a node (each namespace builds its nodes through it). */
export type Make = (node: ExprNode) => Expr;

/** What the `.str` and `.dt` namespaces share: the node they extend and the Expr maker. */
export abstract class Namespace {
  readonly #prefix: string;
  /** @internal The node the namespace's functions take as their input. */
  protected readonly node: ExprNode;
  /** @internal */
  protected readonly make: Make;
  /** @internal */
  protected constructor(prefix: string, node: ExprNode, make: Make) {
    this.#prefix = prefix;
    this.node = node;
    this.make = make;
  }

  /** @internal The node `prefix.op` over this namespace's node, with `extra` fields. */
  protected op(op: string, extra: Partial<ExprNode> = {}): Expr {
    return this.make({ op: `${this.#prefix}.${op}`, args: [this.node], ...extra });
  }
}

function width(value: unknown, fn: string): number {
  if (!Number.isInteger(value) || (value as number) < 0) {
    throw new InvalidArgumentError(`str.${fn}: the width must be an integer >= 0`);
  }
  return value as number;
}

function count(value: unknown, fn: string): number {
  if (!Number.isInteger(value)) throw new InvalidArgumentError(`str.${fn}: n must be an integer`);
  return value as number;
}

/** Options of the string -> date / timestamp parsers. */
export interface StrptimeOptions {
  /** A row that does not match is an error (ERR_CAST naming it) when true (default), else null. */
  strict?: boolean;
}

/** Options of str.splitExact / splitN. */
export interface SplitOptions {
  /** The output columns' names (default `field_0`, `field_1`, ...). */
  names?: readonly string[];
  /** Each piece keeps the separator that ends it (splitExact only). */
  inclusive?: boolean;
}

/** Options of str.toDatetime. */
export interface ToDatetimeOptions extends StrptimeOptions {
  /** The timestamp's unit (default "us", as Polars). */
  unit?: "s" | "ms" | "us" | "ns";
  /**
   * The result's time zone (an IANA name): text without an offset is that zone's local time
   * (an ambiguous or skipped local time is an ERR_TIME_ZONE); text with one (%z) is converted.
   */
  timeZone?: string;
}

function text(value: unknown, fn: string): string {
  if (typeof value !== "string") throw new InvalidArgumentError(`str.${fn} expects a string`);
  return value;
}

/** The regex functions' boolean options as 0/1 (literal defaults to false, strict to true). */
function regexOptions(options: unknown, fn: string, allowed: string[]): { literal: number; strict: number } {
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError(`str.${fn}: options must be an object`);
  const o = options as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) throw new InvalidArgumentError(`str.${fn}: unknown option "${k}"`);
  }
  for (const k of ["literal", "strict"]) {
    if (o[k] !== undefined && typeof o[k] !== "boolean") throw new InvalidArgumentError(`str.${fn}: ${k} must be a boolean`);
  }
  return { literal: o.literal === true ? 1 : 0, strict: o.strict === false ? 0 : 1 };
}

/** String functions of an Expr (UTF-8; "characters" are Unicode code points). */
export class ExprString extends Namespace {
  /** @internal */
  constructor(node: ExprNode, make: Make) {
    super("str", node, make);
  }

  /** Length in characters (code points), as uint32. @example col("s").str.len() */
  len(): Expr {
    return this.op("len");
  }
  /** Length in UTF-8 bytes, as uint32. @example col("s").str.lenBytes() */
  lenBytes(): Expr {
    return this.op("lenBytes");
  }
  /**
   * True where the regular expression `pattern` matches somewhere in the string (as Polars;
   * the syntax is Rust's regex crate's, see docs/semantics.md). `literal: true` searches for
   * the plain substring instead. A bad pattern throws an InvalidArgumentError naming the
   * position; with `strict: false` it gives null for every row instead.
   *
   * @example
   * col("s").str.contains("^ab+c");               // regex
   * col("s").str.contains("a.b", { literal: true }); // the three characters "a.b"
   * col("s").str.contains("(?i)straße");           // case-insensitive
   */
  contains(pattern: string, options: { literal?: boolean; strict?: boolean } = {}): Expr {
    const { literal, strict } = regexOptions(options, "contains", ["literal", "strict"]);
    return this.op("contains", { value: text(pattern, "contains"), params: [literal, strict] });
  }
  /**
   * The number of non-overlapping matches of `pattern` (regex, or plain text with
   * `literal: true`), as uint32. @example col("s").str.countMatches("\\d+")
   */
  countMatches(pattern: string, options: { literal?: boolean } = {}): Expr {
    const { literal } = regexOptions(options, "countMatches", ["literal"]);
    return this.op("countMatches", { value: text(pattern, "countMatches"), params: [literal] });
  }
  /**
   * The character (code point) index of the first match of `pattern`, as uint32; null where
   * there is none. @example col("s").str.find("[0-9]")
   */
  find(pattern: string, options: { literal?: boolean; strict?: boolean } = {}): Expr {
    const { literal, strict } = regexOptions(options, "find", ["literal", "strict"]);
    return this.op("find", { value: text(pattern, "find"), params: [literal, strict] });
  }
  /**
   * Capture group `groupIndex` (0: the whole match) of the first match of `pattern`; null
   * where there is no match or the group took no part. @example col("s").str.extract("(\\d+)-(\\d+)", 2)
   */
  extract(pattern: string, groupIndex = 1): Expr {
    if (!Number.isInteger(groupIndex) || groupIndex < 0)
      throw new InvalidArgumentError("str.extract: groupIndex must be an integer >= 0");
    return this.op("extract", { value: text(pattern, "extract"), params: [groupIndex] });
  }
  /**
   * Every capture group of the first match of `pattern`, one column each, as Polars'
   * `extract_groups` followed by `unnest`: a group's column is named after the group (`(?<year>..)`)
   * or by its number ("1", "2", ...), null where there is no match or the group took no part. Several
   * columns come out, so it must be the whole expression of a select / withColumns item.
   * @example df.select(col("date").str.extractGroups("(?<y>\\d{4})-(?<m>\\d{2})"))
   */
  extractGroups(pattern: string): Expr {
    return this.op("extractGroups", { value: text(pattern, "extractGroups") });
  }
  /**
   * The string with its first `n` (default 1) matches of `pattern` replaced by `value`, in
   * which `$1`, `${1}`, `$name`, `${name}` stand for capture groups and `$$` for `$` (as
   * Rust's regex). With `literal: true` both are plain text.
   *
   * @example col("date").str.replace("(\\d+)/(\\d+)", "$2-$1")
   */
  replace(pattern: string, value: string, options: { literal?: boolean; n?: number } = {}): Expr {
    const { literal } = regexOptions(options, "replace", ["literal", "n"]);
    const n = options.n ?? 1;
    if (!Number.isInteger(n) || n < -1) throw new InvalidArgumentError("str.replace: n must be an integer >= 0 (or -1: all)");
    return this.op("replace", { value: text(pattern, "replace"), list: [text(value, "replace")], params: [literal, n] });
  }
  /** Every match of `pattern` replaced (see replace). @example col("s").str.replaceAll("\\s+", " ") */
  replaceAll(pattern: string, value: string, options: { literal?: boolean } = {}): Expr {
    const { literal } = regexOptions(options, "replaceAll", ["literal"]);
    return this.op("replace", { value: text(pattern, "replaceAll"), list: [text(value, "replaceAll")], params: [literal, -1] });
  }
  /** True where the string starts with `prefix`. @example col("s").str.startsWith("a") */
  startsWith(prefix: string): Expr {
    return this.op("startsWith", { value: text(prefix, "startsWith") });
  }
  /** True where the string ends with `suffix`. @example col("s").str.endsWith("z") */
  endsWith(suffix: string): Expr {
    return this.op("endsWith", { value: text(suffix, "endsWith") });
  }
  /**
   * SQL LIKE: true where the whole string matches `pattern`, in which `%` stands for any run
   * of characters (none included) and `_` for exactly one character (a Unicode code point,
   * whatever its UTF-8 length); every other character matches itself, case-sensitively. There
   * is no escape character. Null stays null; negate with `.not()` (SQL NOT LIKE).
   *
   * @example
   * df.filter(col("o_comment").str.like("%special%requests%").not());
   * df.filter(col("p_type").str.like("PROMO%"));      // runs as startsWith("PROMO")
   * df.filter(col("code").str.like("A_1"));           // "AB1", "Aé1", not "A1" or "AB12"
   */
  like(likePattern: string): Expr {
    return this.op("like", { value: text(likePattern, "like") });
  }
  /**
   * Case-insensitive `like` (SQL ILIKE): the string and the pattern are both lowercased by the
   * full Unicode mappings first, so "STRASSE" and "Straße" differ but "ΣΟΦΙΑ" matches "σοφια".
   * @example df.filter(col("name").str.ilike("%smith%"));
   */
  ilike(likePattern: string): Expr {
    return this.op("ilike", { value: text(likePattern, "ilike") });
  }
  /**
   * Lower case by the full Unicode mappings, with the final-sigma rule ("ΣΑΣ" -> "σας").
   * @example col("s").str.toLowerCase()
   */
  toLowerCase(): Expr {
    return this.op("toLowerCase");
  }
  /**
   * Upper case by the full Unicode mappings: a character may become several ("ß" -> "SS").
   * @example col("s").str.toUpperCase()   // "δέλτα" -> "ΔΈΛΤΑ"
   */
  toUpperCase(): Expr {
    return this.op("toUpperCase");
  }
  /**
   * Title case: the first character of every word by its Unicode title mapping, the rest lower
   * case. Words are runs of alphanumeric characters: any other character starts a new word, as
   * in Polars ("you talkin' to me?" -> "You Talkin' To Me?").
   * @example col("name").str.toTitleCase()   // "jean-luc picard" -> "Jean-Luc Picard"
   */
  toTitleCase(): Expr {
    return this.op("toTitleCase");
  }
  /**
   * Removes leading and trailing characters: whitespace (Unicode White_Space) by default, or any
   * of the characters of `characters` (a set of code points, not a substring).
   * @example col("s").str.strip()          // "  a b  " -> "a b"
   * @example col("s").str.strip("-_")      // "--a_" -> "a"
   */
  strip(characters?: string): Expr {
    return this.op("strip", characters === undefined ? {} : { value: text(characters, "strip") });
  }
  /** `strip` at the start only. @example col("s").str.stripStart() */
  stripStart(characters?: string): Expr {
    return this.op("stripStart", characters === undefined ? {} : { value: text(characters, "stripStart") });
  }
  /** `strip` at the end only. @example col("s").str.stripEnd(".") */
  stripEnd(characters?: string): Expr {
    return this.op("stripEnd", characters === undefined ? {} : { value: text(characters, "stripEnd") });
  }
  /** Removes `prefix` once when the string starts with it. @example col("url").str.stripPrefix("https://") */
  stripPrefix(prefix: string): Expr {
    return this.op("stripPrefix", { value: text(prefix, "stripPrefix") });
  }
  /** Removes `suffix` once when the string ends with it. @example col("f").str.stripSuffix(".csv") */
  stripSuffix(suffix: string): Expr {
    return this.op("stripSuffix", { value: text(suffix, "stripSuffix") });
  }
  /**
   * An aggregation: the strings joined by `delimiter` in row order (per group inside
   * groupBy().agg, else over the whole column), as Polars' `str.join`. Nulls are skipped, or with
   * `ignoreNulls: false` make the result null; no value gives "". Keeps the string dtype.
   * @example df.groupBy("team").agg(col("name").str.join(", "))
   */
  join(delimiter = "", options: { ignoreNulls?: boolean } = {}): Expr {
    const sep = text(delimiter, "join");
    const ignoreNulls = options.ignoreNulls ?? true;
    if (typeof ignoreNulls !== "boolean") throw new InvalidArgumentError("str.join: ignoreNulls must be a boolean");
    return this.make({ op: "agg", args: [this.node], agg: { kind: "strJoin", ddof: 1, q: 0.5, sep, ignoreNulls } });
  }
  /**
   * Splits each string at every occurrence of `by` (plain text, not empty) into exactly `n + 1`
   * columns, as Polars' `split_exact` followed by `unnest`: column k holds piece k, null where the
   * string has fewer pieces (and on null rows); pieces after the last column are dropped. The
   * columns are named `field_0` .. `field_n`, or `options.names`. `inclusive`: a piece keeps the
   * separator that ends it. Several columns come out, so the split must be the whole expression
   * of a select / withColumns item.
   * @example df.select(col("code").str.splitExact("-", 1, { names: ["prefix", "number"] }))
   */
  splitExact(by: string, n: number, options: SplitOptions = {}): Expr {
    return this.#split("splitExact", by, n, n + 1, options, options.inclusive === true);
  }
  /**
   * Splits each string at the first `n - 1` occurrences of `by` into `n` columns, as Polars'
   * `splitn` followed by `unnest`: the last column holds the rest of the string; columns past the
   * pieces there are hold null. Named as splitExact's.
   * @example df.select(col("path").str.splitN("/", 2, { names: ["root", "rest"] }))
   */
  splitN(by: string, n: number, options: Pick<SplitOptions, "names"> = {}): Expr {
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("str.splitN: n must be an integer >= 1");
    return this.#split("splitN", by, n, n, options, false);
  }
  #split(fn: string, by: string, n: number, fields: number, options: Pick<SplitOptions, "names">, inclusive: boolean): Expr {
    const sep = text(by, fn);
    if (sep === "") throw new InvalidArgumentError(`str.${fn}: the separator must not be empty`);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`str.${fn}: n must be an integer >= 0`);
    const names = options.names ?? Array.from({ length: fields }, (_, k) => `field_${k}`);
    if (!Array.isArray(names) || names.length !== fields || names.some((x) => typeof x !== "string")) {
      throw new InvalidArgumentError(`str.${fn}: names must be ${fields} strings, one per column`);
    }
    return this.op(fn, { value: sep, params: [n, inclusive ? 1 : 0], list: [...names] });
  }
  /**
   * Pads at the start with `fill` (one character, default " ") to `length` characters; longer
   * strings are unchanged. @example col("id").str.padStart(5, "0")   // "42" -> "00042"
   */
  padStart(length: number, fill = " "): Expr {
    return this.op("padStart", { params: [width(length, "padStart")], value: text(fill, "padStart") });
  }
  /** Pads at the end to `length` characters. @example col("s").str.padEnd(8, ".") */
  padEnd(length: number, fill = " "): Expr {
    return this.op("padEnd", { params: [width(length, "padEnd")], value: text(fill, "padEnd") });
  }
  /**
   * Pads with zeros at the start to `length` characters, after a leading sign, as Python and
   * Polars. @example col("n").str.zfill(4)   // "-7" -> "-007"
   */
  zfill(length: number): Expr {
    return this.op("zfill", { params: [width(length, "zfill")] });
  }
  /** The first `n` characters; a negative `n` keeps all but the last -n. @example col("s").str.head(3) */
  head(n: number): Expr {
    return this.op("head", { params: [count(n, "head")] });
  }
  /** The last `n` characters; a negative `n` keeps all but the first -n. @example col("s").str.tail(2) */
  tail(n: number): Expr {
    return this.op("tail", { params: [count(n, "tail")] });
  }
  /** The characters (code points) in reverse order. @example col("s").str.reverse() */
  reverse(): Expr {
    return this.op("reverse");
  }
  /**
   * Parses text into `dtype` (date32 or a timestamp) by a chrono-style `format` ("%Y-%m-%d
   * %H:%M:%S%.f"; docs/semantics.md lists the specifiers). Without a format, one is inferred from
   * the first non-null value (ISO 8601 and the common day-first and slashed forms) and used for
   * every row. The whole string must match. Strict by default: a row that does not match is an
   * ERR_CAST naming it; `strict: false` makes such rows null.
   * @example col("s").str.strptime("timestamp[ms]", "%d/%m/%Y %H:%M")
   */
  strptime(dtype: DType, format?: string, options: StrptimeOptions = {}): Expr {
    return this.op("strptime", {
      ...dtypeFields(dtype),
      params: [options.strict === false ? 0 : 1],
      ...(format === undefined ? {} : { value: text(format, "strptime") }),
    });
  }
  /** Parses text into date32 (`strptime("date32", format)`). @example col("d").str.toDate("%Y%m%d") */
  toDate(format?: string, options: StrptimeOptions = {}): Expr {
    return this.strptime("date32", format, options);
  }
  /**
   * Parses text into a timestamp (unit "us" unless given). @example col("t").str.toDatetime()
   */
  toDatetime(format?: string, options: ToDatetimeOptions = {}): Expr {
    const unit = options.unit ?? "us";
    if (!["s", "ms", "us", "ns"].includes(unit)) throw new InvalidArgumentError(`str.toDatetime: unknown unit "${unit}"`);
    const zone = options.timeZone === undefined ? "" : `, tz=${checkZone(options.timeZone, "str.toDatetime")}`;
    return this.strptime(`timestamp[${unit}${zone}]` as DType, format, options);
  }
  /**
   * `length` characters from character `start` (negative: from the end); all the rest when
   * `length` is omitted.
   * @example col("s").str.slice(0, 3)
   */
  slice(start: number, length?: number): Expr {
    if (!Number.isInteger(start)) throw new InvalidArgumentError("str.slice: start must be an integer");
    if (length !== undefined && (!Number.isInteger(length) || length < 0)) {
      throw new InvalidArgumentError("str.slice: length must be an integer >= 0");
    }
    return this.op("slice", { params: [start, length ?? -1] });
  }
}
