/**
 * Duration strings as Polars writes them ("1h", "3d12h", "1mo2d", "-15m"): a sequence of
 * integer + unit, where the units are ns, us, ms, s, m (minutes), h, d, w (fixed lengths, UTC)
 * and mo, q (3 months), y (12 months) (calendar months). A leading "-" negates the whole.
 */
import { InvalidArgumentError } from "./errors.js";

/** An interval split into calendar months and a fixed part (seconds + nanoseconds, same sign). */
export interface Interval {
  readonly months: number;
  readonly seconds: number;
  readonly nanos: number;
}

const FIXED_NS: Record<string, bigint> = {
  ns: 1n, us: 1000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n,
  d: 86_400_000_000_000n, w: 604_800_000_000_000n,
};
const MONTHS: Record<string, bigint> = { mo: 1n, q: 3n, y: 12n };

export function parseInterval(text: unknown, fn: string): Interval {
  if (typeof text !== "string" || text.length === 0) throw new InvalidArgumentError(`${fn} expects a duration string such as "1d" or "1mo2d"`);
  const neg = text.startsWith("-");
  const body = neg ? text.slice(1) : text;
  const re = /(\d+)(ns|us|ms|mo|s|m|h|d|w|q|y)/gy;
  let months = 0n, ns = 0n, pos = 0;
  for (let m = re.exec(body); m !== null; m = re.exec(body)) {
    const n = BigInt(m[1] as string), unit = m[2] as string;
    if (unit in MONTHS) months += n * (MONTHS[unit] as bigint);
    else ns += n * (FIXED_NS[unit] as bigint);
    pos = re.lastIndex;
  }
  if (pos !== body.length || body.length === 0) {
    throw new InvalidArgumentError(`${fn}: "${text}" is not a duration (write e.g. "1h30m", "2w", "1mo", "-3d"; units ns us ms s m h d w mo q y)`);
  }
  const sign = neg ? -1n : 1n;
  const secs = (ns / 1_000_000_000n) * sign, rest = (ns % 1_000_000_000n) * sign;
  if (months > 1_000_000n || secs > BigInt(Number.MAX_SAFE_INTEGER) / 1_000_000_000n) throw new InvalidArgumentError(`${fn}: "${text}" is too long`);
  return { months: Number(months * sign), seconds: Number(secs), nanos: Number(rest) };
}
