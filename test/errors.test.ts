import { describe, expect, it } from "vitest";
import {
  ColumnNotFoundError,
  DataFrame,
  DeviceUnavailableError,
  DisposedError,
  DtypeError,
  GpudfError,
  InvalidArgumentError,
  IoError,
  OutOfMemoryError,
  Series,
  fromArrow,
} from "../src/index.js";
import { Field, Int32, List, Table, vectorFromArray } from "apache-arrow";
import { activeMemory, diffValues, makeArrowVector, rawColumn } from "./helpers.js";

type AnyErrorClass = new (...args: never[]) => GpudfError;

const CLASSES: [string, AnyErrorClass, string][] = [
  ["ColumnNotFoundError", ColumnNotFoundError as AnyErrorClass, "ERR_COLUMN_NOT_FOUND"],
  ["DtypeError", DtypeError as AnyErrorClass, "ERR_DTYPE"],
  ["InvalidArgumentError", InvalidArgumentError as AnyErrorClass, "ERR_INVALID_ARGUMENT"],
  ["OutOfMemoryError", OutOfMemoryError as AnyErrorClass, "ERR_OUT_OF_MEMORY"],
  ["DisposedError", DisposedError as AnyErrorClass, "ERR_DISPOSED"],
  ["DeviceUnavailableError", DeviceUnavailableError as AnyErrorClass, "ERR_DEVICE_UNAVAILABLE"],
  ["IoError", IoError as AnyErrorClass, "ERR_IO"],
];

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected the call to throw");
}

function expectTyped(err: unknown, cls: AnyErrorClass, name: string, code: string): void {
  expect(err).toBeInstanceOf(cls);
  expect(err).toBeInstanceOf(GpudfError);
  expect(err).toBeInstanceOf(Error);
  expect((err as GpudfError).code).toBe(code);
  expect((err as GpudfError).name).toBe(name);
  expect(typeof (err as GpudfError).message).toBe("string");
  expect((err as GpudfError).message.length).toBeGreaterThan(0);
}

describe("error classes", () => {
  for (const [name, cls, code] of CLASSES) {
    it(`${name}: code ${code}, name, prototype chain`, () => {
      expect(cls.prototype).toBeInstanceOf(GpudfError);
      expect(cls.prototype).toBeInstanceOf(Error);
      // The constructor's parameters are not part of the contract; the code and name are.
      const ctor = cls as unknown as new (...a: unknown[]) => GpudfError;
      const e = new ctor("boom");
      expect(e).toBeInstanceOf(cls);
      expect(e).toBeInstanceOf(GpudfError);
      expect(e).toBeInstanceOf(Error);
      expect(e.code).toBe(code);
      expect(e.name).toBe(name);
      expect(typeof e.stack).toBe("string");
    });
  }

  it("the error classes are distinct (one is never an instance of another)", () => {
    for (const [nameA, a] of CLASSES) {
      for (const [nameB, b] of CLASSES) {
        if (nameA === nameB) continue;
        expect(a.prototype instanceof b, `${nameA} instanceof ${nameB}`).toBe(false);
      }
    }
  });

  it("OutOfMemoryError has a numeric requestedBytes", () => {
    // The constructor's arguments are not part of the contract; the field is.
    const ctor = OutOfMemoryError as unknown as new (...a: unknown[]) => OutOfMemoryError;
    const e = new ctor("out of memory");
    expect(typeof e.requestedBytes).toBe("number");
  });

  it("GpudfError itself is an Error", () => {
    expect(GpudfError.prototype).toBeInstanceOf(Error);
  });
});

function frame(): DataFrame {
  return new DataFrame({ a: [1, 2, null, 4], s: ["x", "🦀", "z", null], i: BigInt64Array.of(-(2n ** 63n), 0n, 5n, 2n ** 63n - 1n) });
}

const SNAPSHOT = {
  columns: ["a", "s", "i"],
  dtypes: ["float64", "utf8", "int64"],
  a: [1, 2, null, 4],
  s: ["x", "🦀", "z", null],
  i: [-(2n ** 63n), 0n, 5n, 2n ** 63n - 1n],
};

function expectIntact(df: DataFrame): void {
  expect(df.disposed).toBe(false);
  expect(df.shape).toEqual([4, 3]);
  expect(df.columns).toEqual(SNAPSHOT.columns);
  expect(df.dtypes).toEqual(SNAPSHOT.dtypes);
  expect(diffValues(df.getColumn("a").toArray(), SNAPSHOT.a)).toBeNull();
  expect(diffValues(df.getColumn("s").toArray(), SNAPSHOT.s)).toBeNull();
  expect(diffValues(df.getColumn("i").toArray(), SNAPSHOT.i)).toBeNull();
  expect(df.toRecords().length).toBe(4);
}

describe("errors raised by the library, and the frame is intact afterwards", () => {
  const notFound: [string, (df: DataFrame) => unknown][] = [
    ["select", (df) => df.select("nope")],
    ["select (array)", (df) => df.select(["a", "nope"])],
    ["drop", (df) => df.drop("nope")],
    ["getColumn", (df) => df.getColumn("nope")],
    ["rename", (df) => df.rename({ nope: "x" })],
  ];
  for (const [what, fn] of notFound) {
    it(`ColumnNotFoundError from ${what}`, () => {
      const df = frame();
      expectTyped(caught(() => fn(df)), ColumnNotFoundError as AnyErrorClass, "ColumnNotFoundError", "ERR_COLUMN_NOT_FOUND");
      expectIntact(df);
    });
  }

  const invalid: [string, (df: DataFrame) => unknown][] = [
    ["select duplicate", (df) => df.select("a", "a")],
    ["rename to a duplicate", (df) => df.rename({ a: "s" })],
    ["withColumn length mismatch", (df) => df.withColumn(new Series("z", [1, 2]))],
    ["head(-1)", (df) => df.head(-1)],
    ["tail(-1)", (df) => df.tail(-1)],
    ["slice(0, -1)", (df) => df.slice(0, -1)],
  ];
  for (const [what, fn] of invalid) {
    it(`InvalidArgumentError from ${what}`, () => {
      const df = frame();
      expectTyped(caught(() => fn(df)), InvalidArgumentError as AnyErrorClass, "InvalidArgumentError", "ERR_INVALID_ARGUMENT");
      expectIntact(df);
    });
  }

  it("InvalidArgumentError from mismatched column lengths and from a non-integral value for an int dtype", () => {
    expectTyped(caught(() => new DataFrame({ a: [1], b: [1, 2] })), InvalidArgumentError as AnyErrorClass, "InvalidArgumentError", "ERR_INVALID_ARGUMENT");
    expectTyped(caught(() => new Series("x", [1.5], "int32")), InvalidArgumentError as AnyErrorClass, "InvalidArgumentError", "ERR_INVALID_ARGUMENT");
    expectTyped(caught(() => new Series("x", [300], "uint8")), InvalidArgumentError as AnyErrorClass, "InvalidArgumentError", "ERR_INVALID_ARGUMENT");
  });

  it("DtypeError from mixed kinds, unsupported JS values and unsupported arrow types", () => {
    expectTyped(caught(() => new DataFrame({ a: [1, "x"] as never })), DtypeError as AnyErrorClass, "DtypeError", "ERR_DTYPE");
    expectTyped(caught(() => new Series("a", [{}] as never)), DtypeError as AnyErrorClass, "DtypeError", "ERR_DTYPE");
    const t = new Table({ l: vectorFromArray([[1], [2, 3]], new List(new Field("item", new Int32(), true))) });
    expectTyped(caught(() => fromArrow(t)), DtypeError as AnyErrorClass, "DtypeError", "ERR_DTYPE");
  });

  it("a frame used in a failed withColumn with an incompatible Series is intact, and so is the Series", () => {
    const df = frame();
    const s = new Series("a", [1, 2, 3]);
    caught(() => df.withColumn(s));
    expectIntact(df);
    expect(s.toArray()).toEqual([1, 2, 3]);
  });

  it("a frame keeps working after many failed calls", () => {
    const df = frame();
    for (let k = 0; k < 50; k++) {
      caught(() => df.select("nope"));
      caught(() => df.head(-1));
      caught(() => df.rename({ a: "i" }));
    }
    expectIntact(df);
    expect(df.select("i").head(2).getColumn("i").toArray()).toEqual([-(2n ** 63n), 0n]);
  });

  it("DisposedError after dispose", () => {
    const df = frame();
    df.dispose();
    expectTyped(caught(() => df.shape), DisposedError as AnyErrorClass, "DisposedError", "ERR_DISPOSED");
    const s = new Series("x", [1]);
    s.dispose();
    expectTyped(caught(() => s.toArray()), DisposedError as AnyErrorClass, "DisposedError", "ERR_DISPOSED");
  });
});

describe("failed calls do not leak native memory", () => {
  it("liveBytes is unchanged after constructions that fail part-way", () => {
    const n = 100_000;
    const mixed: unknown[] = Array.from({ length: n }, (_, i) => i);
    mixed.push("x");
    const nonIntegral: number[] = Array.from({ length: n }, (_, i) => i);
    nonIntegral.push(1.5);
    const big = Array.from({ length: n }, (_, i) => i * 0.5);
    const table = new Table({
      a: makeArrowVector("float64", rawColumn("float64", n, "some")),
      l: vectorFromArray(
        Array.from({ length: n }, () => [1]),
        new List(new Field("item", new Int32(), true)),
      ),
    });
    const before = activeMemory().liveBytes;
    for (let k = 0; k < 3; k++) {
      expect(caught(() => new Series("x", mixed as never))).toBeInstanceOf(DtypeError);
      expect(caught(() => new Series("x", nonIntegral, "int32"))).toBeInstanceOf(InvalidArgumentError);
      expect(caught(() => new DataFrame({ a: big, b: [1] }))).toBeInstanceOf(InvalidArgumentError);
      expect(caught(() => fromArrow(table))).toBeInstanceOf(DtypeError);
    }
    expect(activeMemory().liveBytes).toBeLessThanOrEqual(before);
  });
});
