/**
 * Arrow interop between apache-arrow JS `Data` and native columns. Tables are recognised by
 * shape (duck typing), so a table built by another copy of apache-arrow works too.
 */
import * as arrow from "apache-arrow";

import {
  arrowTypeOf,
  dtypeFromArrow,
  isArrowDictionary,
  typeIdOf,
  type ArrowTypeLike,
  type DType,
} from "./dtypes.js";
import { InvalidArgumentError } from "./errors.js";
import { dtypeOfHandle, tagDType } from "./zones.js";
import { native, type ColumnHandle, type NativeArrowChunk, type NativeArrowExport } from "./native/addon.js";

/** The structural view of an Arrow `Data` chunk that gpudf reads. */
export interface ArrowDataLike {
  type: ArrowTypeLike;
  length: number;
  offset: number;
  nullBitmap?: Uint8Array | null;
  valueOffsets?: ArrayBufferView | null;
  values?: ArrayBufferView | null;
  dictionary?: { data: ArrowDataLike[] } | null;
}

/** The structural view of an Arrow `Table` that gpudf reads. */
export interface ArrowTableLike {
  schema: { fields: { name: string; type: ArrowTypeLike }[] };
  getChildAt(index: number): { data: ArrowDataLike[] } | null;
}

/** True for apache-arrow Tables from any copy of the library. */
export function isArrowTable(value: unknown): value is ArrowTableLike {
  const t = value as Partial<ArrowTableLike> | null;
  return (
    typeof t === "object" &&
    t !== null &&
    typeof t.getChildAt === "function" &&
    typeof t.schema === "object" &&
    t.schema !== null &&
    Array.isArray(t.schema.fields)
  );
}

function toNativeChunk(data: ArrowDataLike): NativeArrowChunk {
  const bitmap = data.nullBitmap;
  const chunk: NativeArrowChunk = {
    length: data.length,
    offset: data.offset,
    // Arrow JS leaves an empty bitmap when a chunk has no nulls; native counts the rest.
    validity: bitmap && bitmap.byteLength > 0 ? bitmap : null,
    offsets: data.valueOffsets ?? null,
    values: data.values ?? null,
  };
  if (isArrowDictionary(data.type)) {
    const indices = data.type.indices;
    const dict = data.dictionary;
    if (!indices || !dict) throw new InvalidArgumentError("dictionary column without indices or dictionary");
    chunk.dictionary = { indexType: typeIdOf(dtypeFromArrow(indices)), chunks: dict.data.map(toNativeChunk) };
  }
  return chunk;
}

/** Uploads one Arrow column (all its chunks) as a native column of the active device. */
export function columnFromArrow(type: ArrowTypeLike, chunks: readonly ArrowDataLike[]): { dtype: DType; handle: ColumnHandle } {
  const dtype = dtypeFromArrow(type);
  return { dtype, handle: tagDType(native.importArrow(typeIdOf(dtype), chunks.map(toNativeChunk)), dtype) };
}

type ArrayCtor = new (buffer: ArrayBuffer) => ArrayBufferView;

/** An apache-arrow Data over a native column's exported buffers. */
function dataOfExport(out: NativeArrowExport, dtype: DType): arrow.Data {
  const type = arrowTypeOf(dtype) as arrow.DataType & { ArrayType: ArrayCtor; OffsetArrayType: ArrayCtor };
  const props: Record<string, unknown> = {
    type,
    length: out.length,
    nullCount: out.nullCount,
    data: new type.ArrayType(out.values),
  };
  if (out.validity) props["nullBitmap"] = new Uint8Array(out.validity);
  if (out.offsets) props["valueOffsets"] = new type.OffsetArrayType(out.offsets);
  return arrow.makeData(props as unknown as Parameters<typeof arrow.makeData>[0]);
}

/** Builds an apache-arrow Data straight from the native column's exported buffers. */
export function columnToArrowData(handle: ColumnHandle, dtype: DType): arrow.Data {
  return dataOfExport(native.exportArrow(handle), dtype);
}

function tableOfExports(names: readonly string[], dtypes: readonly DType[], exports: readonly NativeArrowExport[]): arrow.Table {
  const vectors: Record<string, arrow.Vector> = {};
  exports.forEach((e, i) => {
    vectors[names[i] as string] = arrow.makeVector(dataOfExport(e, dtypes[i]!));
  });
  return new arrow.Table(vectors);
}

/** An apache-arrow Table of these native columns, built straight from their buffers (DataFrame.toArrow). */
export function tableOfColumns(names: readonly string[], handles: readonly ColumnHandle[]): arrow.Table {
  return tableOfExports(names, handles.map(dtypeOfHandle), handles.map((h) => native.exportArrow(h)));
}

/**
 * tableOfColumns with the column bytes copied out on a worker thread (the async writers). The
 * columns are taken when it is called: they may be disposed before the promise settles.
 */
export async function tableOfColumnsAsync(names: readonly string[], handles: readonly ColumnHandle[]): Promise<arrow.Table> {
  const dtypes = handles.map(dtypeOfHandle);
  return tableOfExports(names, dtypes, await native.exportArrowAsync([...handles]));
}
