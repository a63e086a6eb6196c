/**
 * The `.str` and `.dt` namespaces of Expr. They build nodes only; types are checked natively.
 */
import { InvalidArgumentError } from "./errors.js";
import type { Expr, ExprNode } from "./expr.js";

type Make = (node: ExprNode) => Expr;

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
export class ExprString {
  readonly #node: ExprNode;
  readonly #make: Make;
  /** @internal */
  constructor(node: ExprNode, make: Make) {
    this.#node = node;
    this.#make = make;
  }

  #op(op: string, extra: Partial<ExprNode> = {}): Expr {
    return this.#make({ op: `str.${op}`, args: [this.#node], ...extra });
  }

  /** Length in characters (code points), as uint32. @example col("s").str.len() */
  len(): Expr {
    return this.#op("len");
  }
  /** Length in UTF-8 bytes, as uint32. @example col("s").str.lenBytes() */
  lenBytes(): Expr {
    return this.#op("lenBytes");
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
    return this.#op("contains", { value: text(pattern, "contains"), params: [literal, strict] });
  }
  /**
   * The number of non-overlapping matches of `pattern` (regex, or plain text with
   * `literal: true`), as uint32. @example col("s").str.countMatches("\\d+")
   */
  countMatches(pattern: string, options: { literal?: boolean } = {}): Expr {
    const { literal } = regexOptions(options, "countMatches", ["literal"]);
    return this.#op("countMatches", { value: text(pattern, "countMatches"), params: [literal] });
  }
  /**
   * The character (code point) index of the first match of `pattern`, as uint32; null where
   * there is none. @example col("s").str.find("[0-9]")
   */
  find(pattern: string, options: { literal?: boolean; strict?: boolean } = {}): Expr {
    const { literal, strict } = regexOptions(options, "find", ["literal", "strict"]);
    return this.#op("find", { value: text(pattern, "find"), params: [literal, strict] });
  }
  /**
   * Capture group `groupIndex` (0: the whole match) of the first match of `pattern`; null
   * where there is no match or the group took no part. @example col("s").str.extract("(\\d+)-(\\d+)", 2)
   */
  extract(pattern: string, groupIndex = 1): Expr {
    if (!Number.isInteger(groupIndex) || groupIndex < 0)
      throw new InvalidArgumentError("str.extract: groupIndex must be an integer >= 0");
    return this.#op("extract", { value: text(pattern, "extract"), params: [groupIndex] });
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
    return this.#op("replace", { value: text(pattern, "replace"), list: [text(value, "replace")], params: [literal, n] });
  }
  /** Every match of `pattern` replaced (see replace). @example col("s").str.replaceAll("\\s+", " ") */
  replaceAll(pattern: string, value: string, options: { literal?: boolean } = {}): Expr {
    const { literal } = regexOptions(options, "replaceAll", ["literal"]);
    return this.#op("replace", { value: text(pattern, "replaceAll"), list: [text(value, "replaceAll")], params: [literal, -1] });
  }
  /** True where the string starts with `prefix`. @example col("s").str.startsWith("a") */
  startsWith(prefix: string): Expr {
    return this.#op("startsWith", { value: text(prefix, "startsWith") });
  }
  /** True where the string ends with `suffix`. @example col("s").str.endsWith("z") */
  endsWith(suffix: string): Expr {
    return this.#op("endsWith", { value: text(suffix, "endsWith") });
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
    return this.#op("like", { value: text(likePattern, "like") });
  }
  /**
   * Case-insensitive `like` (SQL ILIKE): the string and the pattern are both lowercased by the
   * full Unicode mappings first, so "STRASSE" and "Straße" differ but "ΣΟΦΙΑ" matches "σοφια".
   * @example df.filter(col("name").str.ilike("%smith%"));
   */
  ilike(likePattern: string): Expr {
    return this.#op("ilike", { value: text(likePattern, "ilike") });
  }
  /**
   * Lower case by the full Unicode mappings, with the final-sigma rule ("ΣΑΣ" -> "σας").
   * @example col("s").str.toLowerCase()
   */
  toLowerCase(): Expr {
    return this.#op("toLowerCase");
  }
  /**
   * Upper case by the full Unicode mappings: a character may become several ("ß" -> "SS").
   * @example col("s").str.toUpperCase()   // "δέλτα" -> "ΔΈΛΤΑ"
   */
  toUpperCase(): Expr {
    return this.#op("toUpperCase");
  }
  /**
   * Title case: the first character of every word by its Unicode title mapping, the rest lower
   * case. Words are runs of alphanumeric characters: any other character starts a new word, as
   * in Polars ("you talkin' to me?" -> "You Talkin' To Me?").
   * @example col("name").str.toTitleCase()   // "jean-luc picard" -> "Jean-Luc Picard"
   */
  toTitleCase(): Expr {
    return this.#op("toTitleCase");
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
    return this.#op("slice", { params: [start, length ?? -1] });
  }
}

/** Date/time fields of an Expr over date32 or timestamp columns (UTC). */
export class ExprDateTime {
  readonly #node: ExprNode;
  readonly #make: Make;
  /** @internal */
  constructor(node: ExprNode, make: Make) {
    this.#node = node;
    this.#make = make;
  }

  #op(op: string): Expr {
    return this.#make({ op: `dt.${op}`, args: [this.#node] });
  }

  /** The year (int32). @example col("d").dt.year() */
  year(): Expr {
    return this.#op("year");
  }
  /** The month 1..12 (int8). @example col("d").dt.month() */
  month(): Expr {
    return this.#op("month");
  }
  /** The day of the month 1..31 (int8). @example col("d").dt.day() */
  day(): Expr {
    return this.#op("day");
  }
  /** The hour 0..23 (int8; timestamps only). @example col("ts").dt.hour() */
  hour(): Expr {
    return this.#op("hour");
  }
  /** The minute 0..59 (int8; timestamps only). @example col("ts").dt.minute() */
  minute(): Expr {
    return this.#op("minute");
  }
  /** The second 0..59 (int8; timestamps only). @example col("ts").dt.second() */
  second(): Expr {
    return this.#op("second");
  }
  /** ISO weekday: 1 = Monday .. 7 = Sunday (int8). @example col("d").dt.weekday() */
  weekday(): Expr {
    return this.#op("weekday");
  }
}
