/**
 * collect / collectSync / explain / profile: optimise the logical plan, read the sources that
 * are read in JS, lower to one physical plan and run it natively (collect: off the JS thread).
 */
import { DataFrame, frameFromColumns, framePartsOf } from "../dataframe.js";
import { ensureDevice } from "../device.js";
import { InvalidArgumentError } from "../errors.js";
import { native, type NativeExecResult } from "../native/addon.js";
import { formatPlan } from "./explain.js";
import { lower, type LowerOptions } from "./lower.js";
import { optimize, resolveFlags, type OptimizationFlags } from "./optimizer/index.js";
import type { LogicalPlan, ScanSource, Schema } from "./plan.js";
import { tagDType } from "../zones.js";
import { readSources, readSourcesSync } from "./sources.js";

/** Options of collect / collectSync / profile. */
export interface CollectOptions {
  /** Optimizer rules to turn off (each defaults to true), e.g. `{ predicatePushdown: false }`. */
  optimizations?: Partial<OptimizationFlags>;
}

/** What profile() resolves with. */
export interface ProfileResult {
  result: DataFrame;
  /**
   * One row per operator: name, rows_in, rows_out, start_us, end_us (since execution began),
   * copied_bytes (host <-> device bytes copied meanwhile: CUDA only, 0 on the CPU).
   */
  profile: DataFrame;
}

/** The optimised plan and how the executor may run it. */
function prepare(plan: LogicalPlan, options: CollectOptions): { plan: LogicalPlan; lowering: LowerOptions } {
  if (options === null || typeof options !== "object") throw new InvalidArgumentError("collect options must be an object");
  for (const k of Object.keys(options)) {
    if (k !== "optimizations") throw new InvalidArgumentError(`collect: unknown option "${k}" (options are optimizations)`);
  }
  const flags = resolveFlags(options.optimizations);
  return { plan: optimize(plan, flags), lowering: { pipelines: flags.pipelines } };
}

/** The result frame; its timestamps take their zones from the plan's schema. */
function toFrame(out: NativeExecResult, schema: Schema): DataFrame {
  out.columns.forEach((h, i) => tagDType(h, schema.dtypes[schema.names.indexOf(out.names[i] as string)] ?? "int8"));
  return frameFromColumns(out.names, out.columns);
}

function run(plan: LogicalPlan, lowering: LowerOptions, profile: boolean, sync: true): NativeExecResult;
function run(plan: LogicalPlan, lowering: LowerOptions, profile: boolean, sync: false): Promise<NativeExecResult>;
function run(plan: LogicalPlan, lowering: LowerOptions, profile: boolean, sync: boolean): NativeExecResult | Promise<NativeExecResult> {
  ensureDevice();
  const physical = lower(plan, framePartsOf, lowering);
  return sync ? native.executeSync(physical.nodes, physical.frames, profile) : native.execute(physical.nodes, physical.frames, profile);
}

/** collect (sync false: a Promise) or collectSync. */
export function collectPlan(plan: LogicalPlan, options: CollectOptions, sync: true): DataFrame;
export function collectPlan(plan: LogicalPlan, options: CollectOptions, sync: false): Promise<DataFrame>;
export function collectPlan(plan: LogicalPlan, options: CollectOptions, sync: boolean): DataFrame | Promise<DataFrame> {
  const { plan: optimized, lowering } = prepare(plan, options);
  if (sync) {
    const { plan: ready, dispose } = readSourcesSync(optimized);
    try {
      return toFrame(run(ready, lowering, false, true), plan.schema);
    } finally {
      dispose();
    }
  }
  return (async () => {
    const { plan: ready, dispose } = await readSources(optimized);
    try {
      return toFrame(await run(ready, lowering, false, false), plan.schema);
    } finally {
      dispose();
    }
  })();
}

/** The plan as text, optimised or as built. */
export function explainPlan(plan: LogicalPlan, optimized: boolean, optimizations: Partial<OptimizationFlags>): string {
  return formatPlan(optimized ? optimize(plan, resolveFlags(optimizations)) : plan);
}

/** collect() with every operator's timings and row counts. */
export async function profilePlan(plan: LogicalPlan, options: CollectOptions): Promise<ProfileResult> {
  const { plan: optimized, lowering } = prepare(plan, options);
  const { plan: ready, dispose } = await readSources(optimized);
  try {
    const out = await run(ready, lowering, true, false);
    const p = out.profile;
    const profile = new DataFrame({
      name: p.map((x) => x.name),
      rows_in: BigInt64Array.from(p, (x) => BigInt(x.rowsIn)),
      rows_out: BigInt64Array.from(p, (x) => BigInt(x.rowsOut)),
      start_us: Float64Array.from(p, (x) => x.startNs / 1000),
      end_us: Float64Array.from(p, (x) => x.endNs / 1000),
      copied_bytes: BigInt64Array.from(p, (x) => BigInt(x.copiedBytes)),
    });
    return { result: toFrame(out, plan.schema), profile };
  } finally {
    dispose();
  }
}

/**
 * A source computed in JS when the plan runs (type "eager"): `input` collected (on the calling
 * thread for collectSync, else off it), then `step` over its result, which is released after.
 */
export function eagerSource(input: LogicalPlan, label: string, step: (df: DataFrame) => DataFrame): ScanSource {
  const apply = (df: DataFrame): DataFrame => {
    try {
      return step(df);
    } finally {
      df.dispose();
    }
  };
  return { type: "eager", label, read: (sync) => (sync ? apply(collectPlan(input, {}, true)) : collectPlan(input, {}, false).then(apply)) };
}
