/**
 * gpudf: GPU-accelerated dataframes for Node.js over a native C++/CUDA core.
 *
 * @example
 * import { DataFrame, device } from "gpudf";
 * const df = new DataFrame({ a: [1, 2, 3], s: ["x", null, "z"] });
 * console.log(device().name, df.toString());
 */
export { DataFrame, fromArrow, type ColumnInput } from "./dataframe.js";
import "./dataframe_io.js"; // installs toRecords, toJSON, toArrow and the writers (CSV, NDJSON / JSON, IPC, Parquet) on DataFrame
import "./dataframe_reshape.js"; // installs pivot and transpose on DataFrame
export { concat, type ConcatHow, type ConcatOptions } from "./concat.js";
export type { UnpivotOptions, TransposeOptions } from "./ops/reshape.js";
export type { PivotOptions, PivotAggregate, PivotValue } from "./ops/pivot.js";
export type { FillNullStrategy, FillNullStrategyName, ReplaceMapping } from "./expr_fill.js";
export {
  coalesce,
  sumHorizontal,
  minHorizontal,
  maxHorizontal,
  meanHorizontal,
  anyHorizontal,
  allHorizontal,
  type HorizontalInput,
} from "./expr_horizontal.js";
export { LazyFrame, type ExplainOptions } from "./lazy/lazy_frame.js";
export { LazyGroupBy } from "./lazy/lazy_groupby.js";
export { LazyWindowGroupBy } from "./lazy/lazy_dynamic.js"; // installs LazyFrame.groupByDynamic and rolling
export { scanCSV, scanParquet, scanIPC, scanNDJSON, type ScanCSVOptions, type ScanNDJSONOptions } from "./lazy/scan.js";
export type { CollectOptions, ProfileResult } from "./lazy/collect.js";
export type { OptimizationFlags } from "./lazy/optimizer/index.js";
export type { FrameVerbs, GroupVerbs } from "./ops/verbs.js";
export type { SortBy, SortOptions, SeriesSortOptions, UniqueOptions } from "./ops/sort.js";
export type { SampleOptions, TakeIndices } from "./ops/take.js";
export type { JoinOptions, JoinHow, JoinMaintainOrder } from "./ops/join.js";
export { Series } from "./series.js";
import "./series_methods.js"; // installs the element-wise, .str and .dt methods on Series
export type { AsSeries, SeriesNamespace } from "./series_methods.js";
export type { ReduceValue } from "./ops/reduce.js";
export type { DropItem, SelectItem } from "./ops/select.js";
export type { ParquetColumnChunkMetadata } from "./io/parquet_read.js";
export { WindowGroupBy, type DynamicGroupByOptions, type RollingGroupOptions, type ClosedWindow, type WindowLabel, type StartBy, type Weekday } from "./dynamic.js"; // installs DataFrame.groupByDynamic and rolling
export type { CumOptions, RankOptions, RankMethod, OverOptions } from "./expr_window.js";
import "./expr_rolling.js"; // installs the rolling window methods on Expr and Series
export type { RollingOptions, RollingByOptions, RollingInterpolation, RollingClosed } from "./expr_rolling.js";
export { setDisplay, getDisplay, type DisplaySettings } from "./format.js";
export { readCSV, readCSVSync, type ReadCSVOptions, type WriteCSVOptions } from "./io/csv.js";
export { readIPC, readIPCSync, type WriteIPCOptions } from "./io/ipc.js";
export {
  readJSON,
  readJSONSync,
  readNDJSON,
  readNDJSONSync,
  writeJSON,
  writeJSONSync,
  writeNDJSON,
  writeNDJSONSync,
  type JsonSource,
  type ReadJSONOptions,
} from "./io/json.js";
export {
  parquetMetadata,
  readParquet,
  readParquetSync,
  type ParquetMetadata,
  type ParquetSource,
  type ReadParquetOptions,
  type WriteParquetOptions,
} from "./io/parquet.js";
export { col, lit, when, len, corr, cov, Expr, When, Then, type ExprInput, type LiteralValue } from "./expr.js";
export { concatStr, format } from "./expr_strings.js";
export { duration, type DurationOptions, type DurationParts } from "./expr_duration.js";
import "./expr_rows.js"; // installs filter, sortBy, len and .name on Expr
export { ExprName, type SortByOptions } from "./expr_rows.js";
export { cs, all, exclude, Selector } from "./selectors.js";
export { intRange } from "./expr_sized.js"; // also installs Expr.mode
export { GroupBy, type GroupByOptions, type GroupKey } from "./ops/groupby.js";
export type { TopKBy } from "./ops/top_k.js";
export { ExprDateTime, type ReplaceTimeZoneOptions } from "./expr_datetime.js";
export { ExprString, type SplitOptions, type StrptimeOptions, type ToDatetimeOptions } from "./expr_namespaces.js";
export { device, memory, setMemoryLimit, type DeviceInfo, type MemoryLimits, type MemoryStats } from "./device.js";
export { DTYPES, type DType, type BaseDType, type TimeUnit, type ZonedTimestamp } from "./dtypes.js";
export type { ColumnValues } from "./columns.js";
export {
  GpudfError,
  ColumnNotFoundError,
  DtypeError,
  InvalidArgumentError,
  OutOfMemoryError,
  DisposedError,
  DeviceUnavailableError,
  IoError,
  CsvParseError,
  JsonParseError,
  ParquetError,
  CastError,
  TimeZoneError,
  InternalError,
} from "./errors.js";
