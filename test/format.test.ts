import { describe, it, expect } from "vitest";
import { formatFrame, formatSeries, getDisplay, setDisplay } from "../src/format.js";
import type { DType } from "../src/dtypes.js";

/** A fetch over column-major JS arrays that records every call. */
function recorder(columns: unknown[][]) {
  const calls: Array<[number, number]> = [];
  const fetch = (start: number, count: number): unknown[][] => {
    calls.push([start, count]);
    return columns.map((c) => c.slice(start, start + count));
  };
  return { fetch, calls };
}

/** Renders a small frame from column-major arrays. */
function frame(names: string[], dtypes: DType[], columns: unknown[][], options?: Parameters<typeof formatFrame>[4]) {
  const height = columns[0]?.length ?? 0;
  return formatFrame(names, dtypes, height, recorder(columns).fetch, options);
}

/** Builds the expected text from lines (avoids indentation inside template literals). */
const lines = (...ls: string[]): string => ls.join("\n");

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): Date =>
  new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));

describe("formatFrame", () => {
  it("prints a small frame with floats, strings, bools and nulls", () => {
    const out = frame(
      ["a", "s", "ok"],
      ["float64", "utf8", "bool"],
      [
        [1, 2.5, null],
        ["x", null, "hello"],
        [true, false, null],
      ],
    );
    expect(out).toBe(
      lines(
        "shape: (3, 3)",
        "┌─────────┬─────────┬───────┐",
        "│ a       ┆ s       ┆ ok    │",
        "│ ---     ┆ ---     ┆ ---   │",
        "│ float64 ┆ utf8    ┆ bool  │",
        "╞═════════╪═════════╪═══════╡",
        "│ 1.0     ┆ \"x\"     ┆ true  │",
        "│ 2.5     ┆ null    ┆ false │",
        "│ null    ┆ \"hello\" ┆ null  │",
        "└─────────┴─────────┴───────┘",
      ),
    );
  });

  it("pads each column to its widest cell, names included", () => {
    const out = frame(["a_long_column_name", "b"], ["int32", "int16"], [[1, 22], [333, 4]]);
    expect(out).toBe(
      lines(
        "shape: (2, 2)",
        "┌────────────────────┬───────┐",
        "│ a_long_column_name ┆ b     │",
        "│ ---                ┆ ---   │",
        "│ int32              ┆ int16 │",
        "╞════════════════════╪═══════╡",
        "│ 1                  ┆ 333   │",
        "│ 22                 ┆ 4     │",
        "└────────────────────┴───────┘",
      ),
    );
  });

  it("elides rows past maxRows and fetches only the shown rows", () => {
    const ids = Array.from({ length: 100 }, (_, i) => i);
    const { fetch, calls } = recorder([ids]);
    const out = formatFrame(["id"], ["int32"], 100, fetch);
    expect(calls).toEqual([
      [0, 5],
      [95, 5],
    ]);
    expect(out).toBe(
      lines(
        "shape: (100, 1)",
        "┌───────┐",
        "│ id    │",
        "│ ---   │",
        "│ int32 │",
        "╞═══════╡",
        "│ 0     │",
        "│ 1     │",
        "│ 2     │",
        "│ 3     │",
        "│ 4     │",
        "│ …     │",
        "│ 95    │",
        "│ 96    │",
        "│ 97    │",
        "│ 98    │",
        "│ 99    │",
        "└───────┘",
      ),
    );
  });

  it("shows exactly maxRows rows without an ellipsis, in one fetch", () => {
    const { fetch, calls } = recorder([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]]);
    const out = formatFrame(["n"], ["uint8"], 10, fetch);
    expect(calls).toEqual([[0, 10]]);
    expect(out).not.toContain("…");
    expect(out.split("\n")).toHaveLength(7 + 10);
  });

  it("splits an odd maxRows as ceil(head) / floor(tail)", () => {
    const { fetch, calls } = recorder([[0, 1, 2, 3, 4, 5, 6, 7]]);
    const out = formatFrame(["n"], ["int8"], 8, fetch, { maxRows: 3 });
    expect(calls).toEqual([
      [0, 2],
      [7, 1],
    ]);
    expect(out).toBe(
      lines(
        "shape: (8, 1)",
        "┌──────┐",
        "│ n    │",
        "│ ---  │",
        "│ int8 │",
        "╞══════╡",
        "│ 0    │",
        "│ 1    │",
        "│ …    │",
        "│ 7    │",
        "└──────┘",
      ),
    );
  });

  it("maxRows: Infinity shows every row", () => {
    const col = Array.from({ length: 25 }, (_, i) => i);
    const { fetch, calls } = recorder([col]);
    const out = formatFrame(["n"], ["int64"], 25, fetch, { maxRows: Infinity });
    expect(calls).toEqual([[0, 25]]);
    expect(out.split("\n")).toHaveLength(7 + 25);
  });

  it("elides columns past maxColumns with a … column", () => {
    const names = Array.from({ length: 10 }, (_, i) => `c${i}`);
    const cols = names.map((_, j) => [j, 10 + j]);
    const { fetch, calls } = recorder(cols);
    const out = formatFrame(names, names.map((): DType => "int32"), 2, fetch);
    expect(calls).toEqual([[0, 2]]);
    expect(out).toBe(
      lines(
        "shape: (2, 10)",
        "┌───────┬───────┬───────┬───────┬───┬───────┬───────┬───────┬───────┐",
        "│ c0    ┆ c1    ┆ c2    ┆ c3    ┆ … ┆ c6    ┆ c7    ┆ c8    ┆ c9    │",
        "│ ---   ┆ ---   ┆ ---   ┆ ---   ┆   ┆ ---   ┆ ---   ┆ ---   ┆ ---   │",
        "│ int32 ┆ int32 ┆ int32 ┆ int32 ┆   ┆ int32 ┆ int32 ┆ int32 ┆ int32 │",
        "╞═══════╪═══════╪═══════╪═══════╪═══╪═══════╪═══════╪═══════╪═══════╡",
        "│ 0     ┆ 1     ┆ 2     ┆ 3     ┆ … ┆ 6     ┆ 7     ┆ 8     ┆ 9     │",
        "│ 10    ┆ 11    ┆ 12    ┆ 13    ┆ … ┆ 16    ┆ 17    ┆ 18    ┆ 19    │",
        "└───────┴───────┴───────┴───────┴───┴───────┴───────┴───────┴───────┘",
      ),
    );
  });

  it("elides rows and columns together", () => {
    const names = ["a", "b", "c"];
    const cols = names.map((_, j) => Array.from({ length: 5 }, (_, i) => i * 10 + j));
    const { fetch, calls } = recorder(cols);
    const out = formatFrame(names, ["int32", "int32", "int32"], 5, fetch, { maxRows: 2, maxColumns: 2 });
    expect(calls).toEqual([
      [0, 1],
      [4, 1],
    ]);
    expect(out).toBe(
      lines(
        "shape: (5, 3)",
        "┌───────┬───┬───────┐",
        "│ a     ┆ … ┆ c     │",
        "│ ---   ┆   ┆ ---   │",
        "│ int32 ┆   ┆ int32 │",
        "╞═══════╪═══╪═══════╡",
        "│ 0     ┆ … ┆ 2     │",
        "│ …     ┆ … ┆ …     │",
        "│ 40    ┆ … ┆ 42    │",
        "└───────┴───┴───────┘",
      ),
    );
  });

  it("cuts cells longer than maxCellWidth with …", () => {
    const long = "abcdefghijklmnopqrstuvwxyz0123456789"; // 36 characters
    const out = frame(["s"], ["utf8"], [[long, "short"]]);
    // The quoted cell is 38 characters; it keeps 31 and ends with "…" (32 in all).
    expect(Array.from('"abcdefghijklmnopqrstuvwxyz0123…')).toHaveLength(32);
    expect(out).toBe(
      lines(
        "shape: (2, 1)",
        "┌──────────────────────────────────┐",
        "│ s                                │",
        "│ ---                              │",
        "│ utf8                             │",
        "╞══════════════════════════════════╡",
        '│ "abcdefghijklmnopqrstuvwxyz0123… │',
        '│ "short"                          │',
        "└──────────────────────────────────┘",
      ),
    );
  });

  it("cuts long names and honours a custom maxCellWidth", () => {
    const out = frame(["population", "x"], ["float64", "utf8"], [[1234567.25], ["abcdef"]], { maxCellWidth: 6 });
    expect(out).toBe(
      lines(
        "shape: (1, 2)",
        "┌────────┬────────┐",
        "│ popul… ┆ x      │",
        "│ ---    ┆ ---    │",
        "│ float… ┆ utf8   │",
        "╞════════╪════════╡",
        "│ 1.234… ┆ \"abcd… │",
        "└────────┴────────┘",
      ),
    );
  });

  it("measures width in code points (non-ASCII, astral characters)", () => {
    const out = frame(["名前", "emoji"], ["utf8", "utf8"], [["日本語", "é"], ["😀😀", "a😀b"]]);
    expect(out).toBe(
      lines(
        "shape: (2, 2)",
        "┌───────┬───────┐",
        "│ 名前    ┆ emoji │",
        "│ ---   ┆ ---   │",
        "│ utf8  ┆ utf8  │",
        "╞═══════╪═══════╡",
        '│ "日本語" ┆ "😀😀"  │',
        '│ "é"   ┆ "a😀b" │',
        "└───────┴───────┘",
      ),
    );
  });

  it("never splits a surrogate pair when cutting", () => {
    const out = frame(["e"], ["utf8"], [["😀😀😀😀😀😀"]], { maxCellWidth: 4 });
    expect(out).toContain('│ "😀😀… │');
    expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it("escapes control characters so a cell stays on one line", () => {
    const out = frame(["s"], ["utf8"], [["a\nb\tc\u0001"]]);
    expect(out).toContain('│ "a\\nb\\tc\\x01" │');
    expect(out.split("\n")).toHaveLength(8);
  });

  it("prints a zero-row frame without fetching", () => {
    const { fetch, calls } = recorder([[], []]);
    const out = formatFrame(["a", "b"], ["int64", "utf8"], 0, fetch);
    expect(calls).toEqual([]);
    expect(out).toBe(
      lines(
        "shape: (0, 2)",
        "┌───────┬──────┐",
        "│ a     ┆ b    │",
        "│ ---   ┆ ---  │",
        "│ int64 ┆ utf8 │",
        "╞═══════╪══════╡",
        "└───────┴──────┘",
      ),
    );
  });

  it("prints a zero-column frame without fetching", () => {
    const { fetch, calls } = recorder([]);
    expect(formatFrame([], [], 0, fetch)).toBe(lines("shape: (0, 0)", "┌┐", "╞╡", "└┘"));
    expect(formatFrame([], [], 3, fetch)).toBe(lines("shape: (3, 0)", "┌┐", "╞╡", "└┘"));
    expect(calls).toEqual([]);
  });

  it("prints floats as Polars displays them, NaN, inf and -inf", () => {
    const out = frame(
      ["f64", "f32"],
      ["float64", "float32"],
      [
        [1, -0, NaN, Infinity, -Infinity, 1e21, 1.5e-7, 0.1],
        [Math.fround(0.1), 3, NaN, Infinity, -Infinity, Math.fround(1e20), Math.fround(16777217), null],
      ],
    );
    expect(out).toBe(
      lines(
        "shape: (8, 2)",
        "┌───────────┬─────────────┐",
        "│ f64       ┆ f32         │",
        "│ ---       ┆ ---         │",
        "│ float64   ┆ float32     │",
        "╞═══════════╪═════════════╡",
        "│ 1.0       ┆ 0.1         │",
        "│ -0.0      ┆ 3.0         │",
        "│ NaN       ┆ NaN         │",
        "│ inf       ┆ inf         │",
        "│ -inf      ┆ -inf        │",
        "│ 1.0000e21 ┆ 1.0000e20   │",
        "│ 1.5000e-7 ┆ 1.6777216e7 │",
        "│ 0.1       ┆ null        │",
        "└───────────┴─────────────┘",
      ),
    );
  });

  it("float digits: up to 6 decimals when the shortest text is long, scientific beyond 999999", () => {
    const values = [5707.339999999997, 1 / 3, 0.1 + 0.2, 123456.789, 1234567.891, -2.5, 1234567.5, 1e-7, 2e6, -0.000123456789];
    const texts = values.map((v) => {
      const box = formatSeries("x", "float64", 1, () => [v]).split("\n");
      return (box[6] as string).slice(2).replace(/ +│$/, "");
    });
    expect(texts).toEqual(["5707.34", "0.333333", "0.3", "123456.789", "1.2346e6", "-2.5", "1234567.5", "0.0000001", "2e6", "-0.000123"]);
  });
});

describe("setDisplay", () => {
  const cell = (v: number, dtype: DType = "float64"): string => {
    const box = formatSeries("x", dtype, 1, () => [v]).split("\n");
    return (box[6] as string).slice(2).replace(/ +│$/, "");
  };

  it("floatPrecision fixes the decimals; null goes back to the default; returns the settings before", () => {
    const before = setDisplay({ floatPrecision: 2 });
    try {
      expect(before).toEqual({ floatPrecision: null, maxRows: 10, maxColumns: 8, maxStringLength: 32 });
      expect([cell(5707.339999999997), cell(1), cell(-0.004), cell(1e30)]).toEqual(["5707.34", "1.00", "-0.00", "1.00e30"]);
      expect(getDisplay().floatPrecision).toBe(2);
      setDisplay({ floatPrecision: null });
      expect(cell(1)).toBe("1.0");
    } finally {
      setDisplay(before);
    }
  });

  it("maxRows, maxColumns and maxStringLength change the defaults of every print", () => {
    const before = setDisplay({ maxRows: 2, maxColumns: 1, maxStringLength: 4 });
    try {
      const out = frame(["abcdef", "b"], ["utf8", "int32"], [["xyzzy", "a", "b"], [1, 2, 3]]);
      expect(out).toBe(
        lines(
          "shape: (3, 2)",
          "┌──────┬───┐",
          "│ abc… ┆ … │",
          "│ ---  ┆   │",
          "│ utf8 ┆   │",
          "╞══════╪═══╡",
          '│ "xy… ┆ … │',
          "│ …    ┆ … │",
          '│ "b"  ┆ … │',
          "└──────┴───┘",
        ),
      );
    } finally {
      setDisplay(before);
    }
    expect(getDisplay()).toEqual({ floatPrecision: null, maxRows: 10, maxColumns: 8, maxStringLength: 32 });
  });

  it("rejects unknown keys and bad values with ERR_INVALID_ARGUMENT", () => {
    // @ts-expect-error: a misspelt key
    expect(() => setDisplay({ maxRow: 3 })).toThrow(/unknown option "maxRow" \(did you mean "maxRows"\?\)/);
    expect(() => setDisplay({ floatPrecision: -1 })).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => setDisplay({ maxRows: 1.5 })).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(getDisplay()).toEqual({ floatPrecision: null, maxRows: 10, maxColumns: 8, maxStringLength: 32 });
  });
  it("prints bigints as digits, int64 and uint64 extremes included", () => {
    const out = frame(
      ["i64", "u64"],
      ["int64", "uint64"],
      [
        [-9223372036854775808n, 9223372036854775807n, null],
        [0n, 18446744073709551615n, 1n],
      ],
    );
    expect(out).toBe(
      lines(
        "shape: (3, 2)",
        "┌──────────────────────┬──────────────────────┐",
        "│ i64                  ┆ u64                  │",
        "│ ---                  ┆ ---                  │",
        "│ int64                ┆ uint64               │",
        "╞══════════════════════╪══════════════════════╡",
        "│ -9223372036854775808 ┆ 0                    │",
        "│ 9223372036854775807  ┆ 18446744073709551615 │",
        "│ null                 ┆ 1                    │",
        "└──────────────────────┴──────────────────────┘",
      ),
    );
  });

  it("prints date32 as YYYY-MM-DD and timestamps in UTC with optional milliseconds", () => {
    const out = frame(
      ["day", "at", "at_ns"],
      ["date32", "timestamp[ms]", "timestamp[ns]"],
      [
        [utc(2024, 1, 2), utc(1969, 12, 31), null],
        [utc(2024, 1, 2, 3, 4, 5, 123), utc(2024, 1, 2, 3, 4, 5), utc(1970, 1, 1)],
        [utc(2024, 2, 29, 23, 59, 59, 7), null, utc(1900, 6, 15, 12)],
      ],
    );
    expect(out).toBe(
      lines(
        "shape: (3, 3)",
        "┌────────────┬─────────────────────────┬─────────────────────────┐",
        "│ day        ┆ at                      ┆ at_ns                   │",
        "│ ---        ┆ ---                     ┆ ---                     │",
        "│ date32     ┆ timestamp[ms]           ┆ timestamp[ns]           │",
        "╞════════════╪═════════════════════════╪═════════════════════════╡",
        "│ 2024-01-02 ┆ 2024-01-02 03:04:05.123 ┆ 2024-02-29 23:59:59.007 │",
        "│ 1969-12-31 ┆ 2024-01-02 03:04:05     ┆ null                    │",
        "│ null       ┆ 1970-01-01 00:00:00     ┆ 1900-06-15 12:00:00     │",
        "└────────────┴─────────────────────────┴─────────────────────────┘",
      ),
    );
  });

  it("throws when fetch returns too few values", () => {
    expect(() => formatFrame(["a"], ["int32"], 3, () => [[1]])).toThrow(RangeError);
  });
});

describe("formatSeries", () => {
  it("prints one column with a shape: (n,) header", () => {
    const values = [1n, null, 3n];
    const out = formatSeries("id", "int64", 3, (start, count) => values.slice(start, start + count));
    expect(out).toBe(
      lines(
        "shape: (3,)",
        "┌───────┐",
        "│ id    │",
        "│ ---   │",
        "│ int64 │",
        "╞═══════╡",
        "│ 1     │",
        "│ null  │",
        "│ 3     │",
        "└───────┘",
      ),
    );
  });

  it("elides rows and fetches only the shown ones", () => {
    const values = Array.from({ length: 1000 }, (_, i) => i / 2);
    const calls: Array<[number, number]> = [];
    const out = formatSeries("half", "float64", 1000, (start, count) => {
      calls.push([start, count]);
      return values.slice(start, start + count);
    });
    expect(calls).toEqual([
      [0, 5],
      [995, 5],
    ]);
    expect(out).toBe(
      lines(
        "shape: (1000,)",
        "┌─────────┐",
        "│ half    │",
        "│ ---     │",
        "│ float64 │",
        "╞═════════╡",
        "│ 0.0     │",
        "│ 0.5     │",
        "│ 1.0     │",
        "│ 1.5     │",
        "│ 2.0     │",
        "│ …       │",
        "│ 497.5   │",
        "│ 498.0   │",
        "│ 498.5   │",
        "│ 499.0   │",
        "│ 499.5   │",
        "└─────────┘",
      ),
    );
  });

  it("prints an empty series", () => {
    let called = false;
    const out = formatSeries("s", "utf8", 0, () => {
      called = true;
      return [];
    });
    expect(called).toBe(false);
    expect(out).toBe(lines("shape: (0,)", "┌──────┐", "│ s    │", "│ ---  │", "│ utf8 │", "╞══════╡", "└──────┘"));
  });
});
