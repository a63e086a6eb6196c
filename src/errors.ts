/**
 * Typed errors. Every error gpudf throws is a GpudfError with a stable `code`; the native layer
 * raises the same classes (they are registered with the addon by code at load time).
 */

/** Base class of every gpudf error. `code` is stable API; the message is not. */
export class GpudfError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
    this.name = new.target.name;
  }
}

/** A column name that the frame does not have. */
export class ColumnNotFoundError extends GpudfError {
  constructor(message: string) {
    super("ERR_COLUMN_NOT_FOUND", message);
  }
}

/** A dtype that is unsupported or does not fit the operation. */
export class DtypeError extends GpudfError {
  constructor(message: string) {
    super("ERR_DTYPE", message);
  }
}

/** An argument outside what the function accepts. */
export class InvalidArgumentError extends GpudfError {
  constructor(message: string) {
    super("ERR_INVALID_ARGUMENT", message);
  }
}

/**
 * A device (host or GPU) could not allocate: `requestedBytes` says how much was asked for,
 * `device` where ("cpu" or "cuda"), and `limitBytes` the memory limit that refused it (absent
 * when the system itself had no memory left). Column buffers and gpudf's sized working arrays
 * name the size; an allocation by a standard container that the system refuses gives
 * `requestedBytes` 0 (not known) with `device` "cpu".
 */
export class OutOfMemoryError extends GpudfError {
  requestedBytes = 0;
  limitBytes?: number;
  device?: "cpu" | "cuda";
  constructor(message: string) {
    super("ERR_OUT_OF_MEMORY", message);
  }
}

/** Use of a DataFrame or Series after dispose(). */
export class DisposedError extends GpudfError {
  constructor(message: string) {
    super("ERR_DISPOSED", message);
  }
}

/** GPUDF_DEVICE asked for a device that cannot run here. */
export class DeviceUnavailableError extends GpudfError {
  constructor(message: string) {
    super("ERR_DEVICE_UNAVAILABLE", message);
  }
}

/** A file could not be read or written. */
export class IoError extends GpudfError {
  constructor(message: string) {
    super("ERR_IO", message);
  }
}

/** A CSV file that cannot be parsed as asked; the message names the line and column. */
export class CsvParseError extends GpudfError {
  constructor(message: string) {
    super("ERR_CSV_PARSE", message);
  }
}

/** JSON or NDJSON text that cannot be parsed; the message names the line (and the file). */
export class JsonParseError extends GpudfError {
  constructor(message: string) {
    super("ERR_JSON_PARSE", message);
  }
}

/** A Parquet file that cannot be read; the message names the file, column and row group. */
export class ParquetError extends GpudfError {
  constructor(message: string) {
    super("ERR_PARQUET", message);
  }
}

/**
 * A value that does not convert where the conversion is strict (`cast(..., { strict })`,
 * `str.strptime`, `str.toDate`): the message names the first such row and its value.
 */
export class CastError extends GpudfError {
  constructor(message: string) {
    super("ERR_CAST", message);
  }
}

/**
 * A time zone the system's tz database lacks (or no database), or a local time that a zone
 * skips or repeats where `replaceTimeZone` / a zoned parse was told to raise (the message names
 * the row and value).
 */
export class TimeZoneError extends GpudfError {
  constructor(message: string) {
    super("ERR_TIME_ZONE", message);
  }
}

/** A bug in gpudf itself (an invariant broke); please report it. */
export class InternalError extends GpudfError {
  constructor(message: string) {
    super("ERR_INTERNAL", message);
  }
}

/** Constructors by code, handed to the native addon so it throws the same classes. */
export const ERROR_CLASSES: Record<string, new (message: string) => GpudfError> = {
  ERR_COLUMN_NOT_FOUND: ColumnNotFoundError,
  ERR_DTYPE: DtypeError,
  ERR_INVALID_ARGUMENT: InvalidArgumentError,
  ERR_OUT_OF_MEMORY: OutOfMemoryError,
  ERR_DISPOSED: DisposedError,
  ERR_DEVICE_UNAVAILABLE: DeviceUnavailableError,
  ERR_IO: IoError,
  ERR_CSV_PARSE: CsvParseError,
  ERR_JSON_PARSE: JsonParseError,
  ERR_PARQUET: ParquetError,
  ERR_CAST: CastError,
  ERR_TIME_ZONE: TimeZoneError,
  ERR_INTERNAL: InternalError,
};
