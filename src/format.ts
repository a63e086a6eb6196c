/**
 * Text rendering of frames and series as Polars-like boxed tables.
 *
 * Pure TypeScript: this module never touches native buffers. Callers hand it
 * a `fetch` callback that materialises only the rows that are displayed.
 */
import { isDuration, type DType } from "./dtypes.js";
import { formatDuration } from "./duration.js";
import { InvalidArgumentError } from "./errors.js";
import { checkOptions } from "./suggest.js";

/** Options for {@link formatFrame} and {@link formatSeries}. */
export interface FormatOptions {
  /**
   * Most data rows shown (default 10). A taller table shows the first
   * `ceil(maxRows / 2)` rows, a row of "…", and the last `floor(maxRows / 2)` rows.
   * `Infinity` shows every row.
   */
  maxRows?: number;
  /**
   * Most columns shown (default 8). A wider table shows the first
   * `ceil(maxColumns / 2)` columns, a "…" column, and the last `floor(maxColumns / 2)`.
   * `Infinity` shows every column.
   */
  maxColumns?: number;
  /**
   * Most characters (Unicode code points) in one cell, names included (default 32).
   * A longer cell keeps its first `maxCellWidth - 1` characters followed by "…".
   * `Infinity` never cuts.
   */
  maxCellWidth?: number;
}

const ELLIPSIS = "…";

const DEFAULT_MAX_ROWS = 10;
const DEFAULT_MAX_COLUMNS = 8;
const DEFAULT_MAX_CELL_WIDTH = 32;

/** Display settings for printed frames and series (see {@link setDisplay}). */
export interface DisplaySettings {
  /**
   * Digits after the decimal point for every float, fixed (Polars' `set_float_precision`), or
   * null (the default): integral values as `1.0`, values whose shortest text is at most 9
   * characters as that text, others with up to 6 decimals (trailing zeros dropped), and
   * magnitudes above 999999 or below 0.000001 as `1.2346e7` (4 decimals, Polars' display).
   */
  floatPrecision: number | null;
  /** Most rows shown (default 10); Infinity shows every row. */
  maxRows: number;
  /** Most columns shown (default 8); Infinity shows every column. */
  maxColumns: number;
  /** Most characters in one cell, names included (default 32); Infinity never cuts. */
  maxStringLength: number;
}

const DEFAULTS: DisplaySettings = {
  floatPrecision: null,
  maxRows: DEFAULT_MAX_ROWS,
  maxColumns: DEFAULT_MAX_COLUMNS,
  maxStringLength: DEFAULT_MAX_CELL_WIDTH,
};

let settings: DisplaySettings = { ...DEFAULTS };

function displayCount(name: string, value: unknown, min: number): number {
  if (value === Infinity) return Infinity;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new InvalidArgumentError(`setDisplay: ${name} must be an integer >= ${min} or Infinity, got ${String(value)}`);
  }
  return value;
}

/**
 * Changes how frames and series print, for the whole process; a key set to null goes back to
 * its default, a key left out keeps its current value. Returns the settings before the call,
 * so `setDisplay(previous)` restores them.
 *
 * @example
 * import { setDisplay } from "gpudf";
 * const before = setDisplay({ floatPrecision: 2, maxRows: 20 });
 * console.log(df);
 * setDisplay(before);
 */
export function setDisplay(changes: { [K in keyof DisplaySettings]?: DisplaySettings[K] | null }): DisplaySettings {
  checkOptions("setDisplay", changes, Object.keys(DEFAULTS));
  const before = { ...settings };
  const next = { ...settings };
  const s = (changes ?? {}) as Record<string, unknown>;
  const pick = (key: keyof DisplaySettings): unknown => (s[key] === null ? DEFAULTS[key] : s[key]);
  if ("floatPrecision" in s && s["floatPrecision"] !== undefined) {
    const v = pick("floatPrecision");
    if (v !== null && (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 20)) {
      throw new InvalidArgumentError(`setDisplay: floatPrecision must be an integer from 0 to 20 or null, got ${String(v)}`);
    }
    next.floatPrecision = v as number | null;
  }
  if (s["maxRows"] !== undefined) next.maxRows = displayCount("maxRows", pick("maxRows"), 0);
  if (s["maxColumns"] !== undefined) next.maxColumns = displayCount("maxColumns", pick("maxColumns"), 0);
  if (s["maxStringLength"] !== undefined) next.maxStringLength = displayCount("maxStringLength", pick("maxStringLength"), 1);
  settings = next;
  return before;
}

/**
 * The current display settings.
 *
 * @example
 * getDisplay().maxRows; // 10
 */
export function getDisplay(): DisplaySettings {
  return { ...settings };
}

/** Reads a count option: undefined/NaN -> default; otherwise floored and at least `min`. */
function countOption(value: number | undefined, fallback: number, min: number): number {
  if (value === undefined || Number.isNaN(value)) return fallback;
  if (value === Infinity) return Infinity;
  return Math.max(min, Math.floor(value));
}

/** Number of Unicode code points in `s` (a surrogate pair counts once). */
function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Cuts `s` to at most `max` code points, the last one being "…" when cut. */
function cut(s: string, max: number): string {
  if (max === Infinity || codePointLength(s) <= max) return s;
  const points = Array.from(s);
  return points.slice(0, Math.max(0, max - 1)).join("") + ELLIPSIS;
}

/** Replaces control characters so that one cell stays on one line. */
function escapeControl(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f]/g, (ch) => {
    switch (ch) {
      case "\n":
        return "\\n";
      case "\r":
        return "\\r";
      case "\t":
        return "\\t";
      default:
        return "\\x" + ch.charCodeAt(0).toString(16).padStart(2, "0");
    }
  });
}

function pad2(n: number): string {
  return n < 10 ? "0" + n : String(n);
}

function formatYear(y: number): string {
  if (y >= 0 && y <= 9999) return String(y).padStart(4, "0");
  return (y < 0 ? "-" : "+") + String(Math.abs(y)).padStart(4, "0");
}

function formatDate(d: Date): string {
  return `${formatYear(d.getUTCFullYear())}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

function formatTimestamp(d: Date): string {
  const base =
    `${formatDate(d)} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:` +
    pad2(d.getUTCSeconds());
  const ms = d.getUTCMilliseconds();
  return ms === 0 ? base : `${base}.${String(ms).padStart(3, "0")}`;
}

/** A zoned timestamp as printed: its local wall-clock time and its UTC offset then. */
export class LocalTime {
  constructor(
    readonly local: Date,
    readonly offsetMinutes: number,
  ) {}
}

function offsetText(minutes: number): string {
  const m = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${pad2(Math.floor(m / 60))}:${pad2(m % 60)}`;
}

/** Shortest decimal text that reads back as the same float32 value. */
function float32Text(x: number): string {
  for (let p = 1; p <= 9; p++) {
    const y = Number(x.toPrecision(p));
    if (Math.fround(y) === x) return String(y);
  }
  return String(x);
}

/** Scientific text with `digits` decimals (undefined: the shortest): 12345678, 4 -> "1.2346e7". */
function scientific(x: number, digits: number | undefined): string {
  const [mantissa, exponent] = x.toExponential(digits).split("e") as [string, string];
  return `${mantissa}e${exponent.startsWith("+") ? exponent.slice(1) : exponent}`;
}

/** A JS number's text without an exponent: "1.5e-7" -> "0.00000015" (non-integers only). */
function plainDecimal(text: string): string {
  const e = text.indexOf("e");
  if (e < 0) return text;
  const sign = text.startsWith("-") ? "-" : "";
  const digits = text.slice(sign.length, e).replace(".", "");
  const exponent = Number(text.slice(e + 1));
  return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
}

/** `text` (a decimal) without trailing zeros after the point, keeping one digit after it. */
function trimZeros(text: string): string {
  if (!text.includes(".")) return text;
  const t = text.replace(/0+$/, "");
  return t.endsWith(".") ? t + "0" : t;
}

const SCIENTIFIC_ABOVE = 999999;
const SCIENTIFIC_BELOW = 0.000001;

/**
 * Float text as Polars displays it: 1 -> "1.0", 5707.339999999997 -> "5707.34",
 * 1e21 -> "1.0000e21"; NaN, inf, -inf. With floatPrecision set, that many decimals (values
 * whose fixed text would exceed 19 characters in scientific form).
 */
function formatFloat(x: number, dtype: DType): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  const precision = settings.floatPrecision;
  if (precision !== null) {
    const fixed = Math.abs(x) < 1e21 ? x.toFixed(precision) : "";
    if (fixed === "" || fixed.length > 19) return scientific(x, precision);
    return Object.is(x, -0) ? "-" + fixed : fixed;
  }
  if (Object.is(x, -0)) return "-0.0";
  const abs = Math.abs(x);
  if (Number.isInteger(x)) {
    if (abs < SCIENTIFIC_ABOVE) return x.toFixed(1);
    // Integral: the shortest scientific form when the digits fit in 9 characters.
    if (abs < 1e21 && String(x).length <= 9) return scientific(x, undefined);
    return scientific(x, 4);
  }
  const plain = plainDecimal(dtype === "float32" ? float32Text(x) : String(x));
  if (plain.length <= 9) return plain;
  if (abs > SCIENTIFIC_ABOVE || abs < SCIENTIFIC_BELOW) return scientific(x, 4);
  return trimZeros(x.toFixed(6));
}

/** Text of one value (before cutting to the cell width). */
function formatValue(value: unknown, dtype: DType): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "number":
      if (dtype === "float32" || dtype === "float64") return formatFloat(value, dtype);
      if (Number.isInteger(value)) return String(value);
      return formatFloat(value, "float64");
    case "bigint":
      return isDuration(dtype) ? formatDuration(value, dtype) : value.toString();
    case "boolean":
      return value ? "true" : "false";
    case "string":
      return `"${escapeControl(value)}"`;
    default:
      break;
  }
  if (value instanceof LocalTime) return `${formatTimestamp(value.local)}${offsetText(value.offsetMinutes)}`;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return "Invalid Date";
    return dtype === "date32" ? formatDate(value) : formatTimestamp(value);
  }
  return escapeControl(String(value));
}

/** Rows [start, start + count) of the displayed columns, already as cell text. */
interface Block {
  /** cells[c][r]: text of displayed column c, row r. */
  cells: string[][];
}

function fetchBlock(
  fetch: (start: number, count: number) => unknown[][],
  start: number,
  count: number,
  columnIndices: number[],
  dtypes: DType[],
  maxCellWidth: number,
): Block {
  const data = fetch(start, count);
  const cells = columnIndices.map((ci) => {
    const values = data[ci];
    if (values === undefined || values.length < count) {
      throw new RangeError(
        `format: fetch(${start}, ${count}) returned ${values === undefined ? "no array" : values.length + " values"} for column ${ci}`,
      );
    }
    const out: string[] = new Array<string>(count);
    const dtype = dtypes[ci] as DType;
    for (let r = 0; r < count; r++) out[r] = cut(formatValue(values[r], dtype), maxCellWidth);
    return out;
  });
  return { cells };
}

/** Splits `n` items into shown head and tail counts, given a maximum. */
function split(n: number, max: number): { head: number; tail: number; truncated: boolean } {
  if (n <= max) return { head: n, tail: 0, truncated: false };
  return { head: Math.ceil(max / 2), tail: Math.floor(max / 2), truncated: true };
}

function renderBox(
  shapeLine: string,
  names: string[],
  dtypes: DType[],
  height: number,
  fetch: (start: number, count: number) => unknown[][],
  options: FormatOptions | undefined,
): string {
  const maxRows = countOption(options?.maxRows, settings.maxRows, 0);
  const maxColumns = countOption(options?.maxColumns, settings.maxColumns, 0);
  const maxCellWidth = countOption(options?.maxCellWidth, settings.maxStringLength, 1);

  const width = names.length;
  if (width === 0) {
    // No columns: an empty box, as Polars prints a 0-wide frame. fetch is never called.
    return [shapeLine, "┌┐", "╞╡", "└┘"].join("\n");
  }

  const cols = split(width, maxColumns);
  const columnIndices: number[] = [];
  for (let i = 0; i < cols.head; i++) columnIndices.push(i);
  for (let i = width - cols.tail; i < width; i++) columnIndices.push(i);

  const rows = split(height, maxRows);
  const headRows = rows.head;
  const tailRows = rows.tail;
  const head =
    headRows > 0 ? fetchBlock(fetch, 0, headRows, columnIndices, dtypes, maxCellWidth) : null;
  const tail =
    tailRows > 0
      ? fetchBlock(fetch, height - tailRows, tailRows, columnIndices, dtypes, maxCellWidth)
      : null;

  // Display columns: every shown column, with the "…" column inserted after the head part.
  interface DisplayColumn {
    name: string;
    rule: string;
    dtype: string;
    values: string[];
  }
  const display: DisplayColumn[] = columnIndices.map((ci, k) => {
    let values: string[] = head ? (head.cells[k] as string[]) : [];
    if (rows.truncated) values = values.concat(ELLIPSIS);
    if (tail) values = values.concat(tail.cells[k] as string[]);
    return {
      name: cut(escapeControl(names[ci] as string), maxCellWidth),
      rule: "---",
      dtype: cut(String(dtypes[ci]), maxCellWidth),
      values,
    };
  });
  if (cols.truncated) {
    const shownRows = headRows + tailRows + (rows.truncated ? 1 : 0);
    display.splice(cols.head, 0, {
      name: ELLIPSIS,
      rule: "",
      dtype: "",
      values: new Array<string>(shownRows).fill(ELLIPSIS),
    });
  }

  const widths = display.map((c) => {
    let w = Math.max(codePointLength(c.name), codePointLength(c.rule), codePointLength(c.dtype));
    for (const v of c.values) w = Math.max(w, codePointLength(v));
    return w;
  });
  const padCell = (s: string, w: number): string => " " + s + " ".repeat(w - codePointLength(s)) + " ";
  const line = (cells: string[]): string =>
    "│" + cells.map((s, i) => padCell(s, widths[i] as number)).join("┆") + "│";
  const rule = (left: string, fill: string, mid: string, right: string): string =>
    left + widths.map((w) => fill.repeat(w + 2)).join(mid) + right;

  const out: string[] = [shapeLine, rule("┌", "─", "┬", "┐")];
  out.push(line(display.map((c) => c.name)));
  out.push(line(display.map((c) => c.rule)));
  out.push(line(display.map((c) => c.dtype)));
  out.push(rule("╞", "═", "╪", "╡"));
  const shownRows = display[0]?.values.length ?? 0;
  for (let r = 0; r < shownRows; r++) out.push(line(display.map((c) => c.values[r] as string)));
  out.push(rule("└", "─", "┴", "┘"));
  return out.join("\n");
}

/**
 * Renders a table as a Polars-like box headed by `shape: (height, width)`.
 *
 * `fetch(start, count)` must return one array per column (in `names` order) holding the
 * values of rows `[start, start + count)`, as `Series.toArray()` gives them (number, bigint,
 * string, boolean, Date or null). It is called at most twice — once for the head rows and,
 * when rows are elided, once for the tail rows — and never for a zero-row or zero-column table.
 *
 * @example
 * ```ts
 * const cols = [[1, 2], ["x", null]];
 * formatFrame(["a", "s"], ["float64", "utf8"], 2, (start, count) =>
 *   cols.map((c) => c.slice(start, start + count)));
 * // shape: (2, 2)
 * // ┌─────────┬──────┐
 * // │ a       ┆ s    │
 * // │ ---     ┆ ---  │
 * // │ float64 ┆ utf8 │
 * // ╞═════════╪══════╡
 * // │ 1.0     ┆ "x"  │
 * // │ 2.0     ┆ null │
 * // └─────────┴──────┘
 * ```
 */
export function formatFrame(
  names: string[],
  dtypes: DType[],
  height: number,
  fetch: (start: number, count: number) => unknown[][],
  options?: FormatOptions,
): string {
  return renderBox(`shape: (${height}, ${names.length})`, names, dtypes, height, fetch, options);
}

/**
 * Renders one column as a Polars-like box headed by `shape: (length,)`.
 *
 * `fetch(start, count)` returns the values of rows `[start, start + count)`; it is called
 * at most twice (head and tail rows) and never for an empty series.
 *
 * @example
 * ```ts
 * const values = [1n, null];
 * formatSeries("id", "int64", 2, (start, count) => values.slice(start, start + count));
 * // shape: (2,)
 * // ┌───────┐
 * // │ id    │
 * // │ ---   │
 * // │ int64 │
 * // ╞═══════╡
 * // │ 1     │
 * // │ null  │
 * // └───────┘
 * ```
 */
export function formatSeries(
  name: string,
  dtype: DType,
  length: number,
  fetch: (start: number, count: number) => unknown[],
  options?: FormatOptions,
): string {
  return renderBox(
    `shape: (${length},)`,
    [name],
    [dtype],
    length,
    (start, count) => [fetch(start, count)],
    options,
  );
}
