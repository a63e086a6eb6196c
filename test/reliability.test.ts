// Faults found by trying gpudf as a user would: each test failed before its fix.
import { describe, expect, it } from "vitest";
import { DataFrame, readCSV, readCSVSync } from "../src/index.js";

describe("input memory that JS can detach or share", () => {
  it("readCSV parses its own copy: transferring the buffer away and overwriting it mid-parse changes nothing", async () => {
    let text = "k,v\n";
    for (let i = 0; i < 300_000; i++) text += `${i},${i * 2}\n`;
    const bytes = new Uint8Array(Buffer.from(text));
    const pending = readCSV(bytes);
    // The ArrayBuffer moves to `moved` (bytes is detached) and its memory is rewritten while
    // the worker thread parses.
    const moved = structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
    new Uint8Array(moved).fill(0x39);
    expect(bytes.byteLength).toBe(0);
    const df = await pending;
    expect(df.columns).toEqual(["k", "v"]);
    expect(df.height).toBe(300_000);
    expect(df.getColumn("v").sum()).toBe(2n * ((299_999n * 300_000n) / 2n));
    df.dispose();
  });

  it("a CSV source and a column over a SharedArrayBuffer read like any other", async () => {
    const text = Buffer.from("a,b\n1,x\n2,y\n");
    const shared = new Uint8Array(new SharedArrayBuffer(text.length));
    shared.set(text);
    const want = [
      { a: 1n, b: "x" },
      { a: 2n, b: "y" },
    ];
    expect(readCSVSync(shared).toRecords()).toEqual(want);
    expect((await readCSV(shared)).toRecords()).toEqual(want);
    const f = new Float64Array(new SharedArrayBuffer(24));
    f.set([1.5, -2, 3]);
    expect(new DataFrame({ f }).getColumn("f").toArray()).toEqual([1.5, -2, 3]);
  });
});
