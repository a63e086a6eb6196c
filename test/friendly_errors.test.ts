// Errors that say what to do: a missing column names the nearest and the available ones
// (col() inside expressions included), a dtype error names both operands as written, a date
// compared with text gets a hint, and unknown option keys are ERR_INVALID_ARGUMENT.
import { describe, expect, it } from "vitest";

import { ColumnNotFoundError, DataFrame, DtypeError, col, lit, scanCSV } from "../src/index.js";
import { nearestName } from "../src/suggest.js";

const df = new DataFrame({
  price: [1.5, 2.5, 4],
  quantity: [1, 2, 3],
  city: ["a", "b", "a"],
  day: [new Date(Date.UTC(2024, 0, 1)), new Date(Date.UTC(2024, 0, 2)), new Date(Date.UTC(2024, 0, 3))],
});
const AVAILABLE = 'available columns: "price", "quantity", "city", "day"';

function failure(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a failure");
}

describe("column not found", () => {
  it.each([
    ["select", () => df.select("pric")],
    ["col() in select", () => df.select(col("pric").mul(2))],
    ["col() in filter", () => df.filter(col("pric").gt(1))],
    ["col() in withColumns", () => df.withColumns(col("pric").alias("p"))],
    ["sort", () => df.sort("pric")],
    ["drop", () => df.drop("pric")],
    ["col() in groupBy.agg", () => df.groupBy("city").agg(col("pric").sum())],
    ["lazy select", () => df.lazy().select(col("pric"))],
  ])("%s names the nearest column and the available ones", (_, f) => {
    const e = failure(f);
    expect(e).toBeInstanceOf(ColumnNotFoundError);
    expect(e.message).toBe(`column "pric" not found (did you mean "price"?); ${AVAILABLE}`);
  });

  it("no suggestion when nothing is close; case differences are close", () => {
    expect(failure(() => df.select(col("zzz"))).message).toBe(`column "zzz" not found; ${AVAILABLE}`);
    expect(failure(() => df.select(col("City"))).message).toBe(`column "City" not found (did you mean "city"?); ${AVAILABLE}`);
    expect(nearestName("quantyti", ["price", "quantity"])).toBe("quantity");
    expect(nearestName("x", ["price", "quantity"])).toBeUndefined();
  });

  it("a wide frame's list is cut after 20 names", () => {
    const wide = new DataFrame(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`c${i}`, [i]])));
    expect(failure(() => wide.select(col("c30x"))).message).toMatch(/"c19", … \(30 in all\)$/);
  });
});

describe("dtype errors name both operands", () => {
  it("a utf8 column against a number literal", () => {
    const e = failure(() => df.filter(col("city").gt(5)));
    expect(e).toBeInstanceOf(DtypeError);
    expect(e.message).toBe("'gt' is not supported between utf8 and the number 5");
    expect(failure(() => df.select(col("city").add(1.5))).message).toBe("'add' is not supported between utf8 and the number 1.5");
    expect(failure(() => df.select(col("price").add(lit(2, "int32")).add(col("city")))).message).toBe(
      "'add' is not supported between float64 and utf8",
    );
  });

  it("a timestamp against an ISO string compares as that instant; other text suggests a Date", () => {
    expect(df.filter(col("day").gte("2024-01-02")).height).toBe(df.filter(col("day").gte(new Date("2024-01-02"))).height);
    expect(df.filter(col("day").gte(new Date("2024-01-02"))).height).toBe(2);
    const e = failure(() => df.filter(col("day").gte("Jan 2nd")));
    expect(e).toBeInstanceOf(DtypeError);
    expect(e.message).toMatch(/^the string "Jan 2nd" is not a timestamp\[ms\] in ISO 8601 .*compare with a Date or parse the text with str\.strptime$/);
  });
});

describe("unknown option keys", () => {
  it.each([
    ["sort", () => df.sort("price", { descendng: true } as never)],
    ["join", () => df.join(df, { on: "city", hwo: "left" } as never)],
    ["groupBy", () => df.groupBy("city", { sorted: true } as never)],
  ])("%s rejects them with ERR_INVALID_ARGUMENT", (_, f) => {
    expect(f).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(f).toThrow(/unknown option/);
  });

  it("scanCSV names itself, not the reader it shares its options with", () => {
    expect(() => scanCSV("never-read.csv", { sepp: ";" } as never)).toThrow(
      /^scanCSV: unknown option "sepp" \(did you mean "sep"\?\)/,
    );
  });
});
