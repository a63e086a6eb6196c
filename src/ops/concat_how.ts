/**
 * concat's modes, over frames' parts: "vertical" (same names and dtypes), "verticalRelaxed"
 * (columns cast to their supertype), "horizontal" (side by side, shorter frames padded with
 * nulls), "diagonal" and "diagonalRelaxed" (the union of the columns, missing ones null). Each
 * column is a cast, a null padding and one native concat.
 */
import { dtypeOfHandle, sameZone } from "../zones.js";
import { dtypeOfId, type DType } from "../dtypes.js";
import { DtypeError, InvalidArgumentError } from "../errors.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { checkUniqueNames, disposeOnError, type FrameResult } from "./frame.js";
import { castTo, disposeAll, nullColumn, padWithNulls, supertypeOf } from "./reshape_util.js";

/** How `concat` combines frames. */
export type ConcatHow = "vertical" | "verticalRelaxed" | "horizontal" | "diagonal" | "diagonalRelaxed";

/** One frame as concat sees it. */
export interface ConcatPart {
  names: string[];
  handles: ColumnHandle[];
}

const heightOf = (p: ConcatPart): number => p.handles[0]?.length ?? 0;

/** Stacks column `name` of every part (null where a part lacks it), cast to `dtype`. */
function stackColumn(parts: readonly ConcatPart[], name: string, dtype: DType): ColumnHandle {
  const pieces: ColumnHandle[] = [];
  try {
    for (const p of parts) {
      const i = p.names.indexOf(name);
      pieces.push(i < 0 ? nullColumn(dtype, heightOf(p)) : castTo(p.handles[i] as ColumnHandle, dtype));
    }
    return native.concat(pieces);
  } finally {
    disposeAll(pieces);
  }
}

/** The union of the parts' names, in order of first appearance, and each one's dtypes. */
function unionSchema(parts: readonly ConcatPart[]): Map<string, DType[]> {
  const schema = new Map<string, DType[]>();
  for (const p of parts) {
    p.names.forEach((n, i) => {
      const d = dtypeOfHandle(p.handles[i] as ColumnHandle);
      const list = schema.get(n);
      if (list) list.push(d);
      else schema.set(n, [d]);
    });
  }
  return schema;
}

/** Throws unless part `k` has the first part's names, in the same order. */
function checkSameNames(p: ConcatPart, k: number, first: ConcatPart): void {
  if (p.names.length !== first.names.length || p.names.some((n, i) => n !== first.names[i])) {
    throw new InvalidArgumentError(
      `concat: frame ${k} has columns [${p.names.join(", ")}]; frame 0 has [${first.names.join(", ")}] (same names in the same order are required)`,
    );
  }
}

/** Stacked vertically: the same names in the same order and the same dtypes (else DtypeError). */
function concatVertical(parts: readonly ConcatPart[]): FrameResult {
  const first = parts[0] as ConcatPart;
  parts.forEach((p, k) => {
    checkSameNames(p, k, first);
    p.handles.forEach((h, i) => {
      const want = dtypeOfHandle(first.handles[i] as ColumnHandle);
      const got = dtypeOfHandle(h);
      if (got !== want) throw new DtypeError(`concat: column "${p.names[i]}" is ${got} in frame ${k} but ${want} in frame 0`);
    });
  });
  const made: ColumnHandle[] = [];
  return disposeOnError(made, () => {
    for (let i = 0; i < first.names.length; i++) made.push(sameZone(first.handles[i] as ColumnHandle, native.concat(parts.map((p) => p.handles[i] as ColumnHandle))));
    return { names: [...first.names], columns: [...made] };
  });
}

/** The parts (at least one) combined as `how` says. */
export function concatParts(parts: readonly ConcatPart[], how: ConcatHow): FrameResult {
  if (how === "vertical") return concatVertical(parts);
  if (how === "horizontal") return concatHorizontal(parts);
  if (how === "verticalRelaxed") parts.forEach((p, k) => checkSameNames(p, k, parts[0] as ConcatPart));
  const schema = unionSchema(parts);
  const made: ColumnHandle[] = [];
  return disposeOnError(made, () => {
    for (const [name, dtypes] of schema) {
      let dtype: DType;
      if (how === "diagonal") {
        dtype = dtypes[0] as DType;
        const other = dtypes.find((d) => d !== dtype);
        if (other !== undefined) {
          throw new DtypeError(`concat: column "${name}" is ${dtype} in one frame and ${other} in another (use how: "diagonalRelaxed")`);
        }
      } else {
        dtype = supertypeOf(dtypes, `concat: column "${name}"`);
      }
      made.push(stackColumn(parts, name, dtype));
    }
    return { names: [...schema.keys()], columns: [...made] };
  });
}

/** Side by side; names must be distinct; frames shorter than the tallest are padded with nulls. */
function concatHorizontal(parts: readonly ConcatPart[]): FrameResult {
  const names = parts.flatMap((p) => p.names);
  checkUniqueNames(names, " across the frames of a horizontal concat");
  const height = Math.max(0, ...parts.map(heightOf));
  const made: ColumnHandle[] = [];
  return disposeOnError(made, () => {
    for (const p of parts) for (const h of p.handles) made.push(padWithNulls(h, height - h.length));
    return { names, columns: [...made] };
  });
}
