/**
 * The fuzz driver: `npm run fuzz -- [--cases N] [--seed S] [--targets api,csv,json,ipc,parquet,expr]
 * [--batch B] [--timeout-ms T] [--jobs J]`. Cases are split evenly over the targets and run in
 * batches, each batch a child process with a timeout per case (T, default 60 s: the clock
 * restarts whenever the worker reports a case begun or ended, so a long batch of slow cases is
 * not a hang): a case that times out is a hang (it is named and the batch resumes after it), a
 * batch killed by a signal or exiting non-zero is a crash. Prints the counts and exits non-zero
 * when any case failed.
 */
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface FuzzCounts {
  cases: number;
  crashes: number;
  hangs: number;
  nonGpudfErrors: number;
  perTarget: Record<string, number>;
  failures: string[];
  seconds: number;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const TSX = join(HERE, "..", "..", "node_modules", "tsx", "dist", "cli.mjs");

function batch(target: string, seed: number, first: number, count: number, timeoutMs: number, env: NodeJS.ProcessEnv) {
  return new Promise<{ lines: string[]; code: number | null; signal: string | null; timedOut: boolean; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [TSX, join(HERE, "worker.ts"), target, String(seed), String(first), String(count)], {
      env, stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "", err = "", timedOut = false;
    const expire = () => {
      timedOut = true;
      child.kill("SIGKILL");
    };
    let timer = setTimeout(expire, timeoutMs);
    child.stdout.on("data", (d) => {
      out += d;
      // Progress: the case under way began just now (or the last one ended), so its clock restarts.
      clearTimeout(timer);
      timer = setTimeout(expire, timeoutMs);
    });
    child.stderr.on("data", (d) => (err = (err + d).slice(-4000)));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ lines: out.split("\n").filter(Boolean), code, signal, timedOut, stderr: err });
    });
  });
}

export async function fuzz(options: { cases: number; seed?: number | undefined; targets?: string[] | undefined; batch?: number | undefined; timeoutMs?: number | undefined; jobs?: number | undefined; env?: NodeJS.ProcessEnv | undefined; weights?: Record<string, number> | undefined }): Promise<FuzzCounts> {
  const started = Date.now();
  const targets = options.targets ?? ["api", "csv", "json", "ipc", "parquet", "expr"];
  const seed = options.seed ?? 1;
  const size = options.batch ?? 2000;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const env = options.env ?? process.env;
  const counts: FuzzCounts = { cases: 0, crashes: 0, hangs: 0, nonGpudfErrors: 0, perTarget: {}, failures: [], seconds: 0 };
  const work: { target: string; first: number; count: number }[] = [];
  // Cases split by weight (default: evenly), the remainder to the first targets.
  const weight = (t: string): number => options.weights?.[t] ?? 1;
  const sum = targets.reduce((a, t) => a + weight(t), 0);
  const shares = targets.map((t) => Math.floor((options.cases * weight(t)) / sum));
  for (let i = 0, left = options.cases - shares.reduce((a, b) => a + b, 0); left > 0; i = (i + 1) % targets.length, left--) shares[i]! += 1;
  targets.forEach((target, t) => {
    const total = shares[t] as number;
    for (let first = 0; first < total; first += size) work.push({ target, first, count: Math.min(size, total - first) });
  });
  const runOne = async (w: { target: string; first: number; count: number }): Promise<void> => {
    let first = w.first;
    const end = w.first + w.count;
    while (first < end) {
      const r = await batch(w.target, seed, first, end - first, timeoutMs, env);
      let current = -1;
      for (const line of r.lines) {
        const [kind, c, verdict] = line.split(" ");
        if (kind === "C") current = Number(c);
        if (kind === "R") {
          counts.cases++;
          counts.perTarget[w.target] = (counts.perTarget[w.target] ?? 0) + 1;
          current = -1;
          if (verdict !== "ok") {
            counts.nonGpudfErrors++;
            counts.failures.push(`${w.target} seed ${seed} case ${c}: ${line.split(" ").slice(3).join(" ")}`);
          }
          first = Number(c) + 1;
        }
      }
      if (r.lines.includes("DONE")) break;
      // The batch stopped before its end: the case it was in hung or crashed.
      const at = current >= 0 ? current : first;
      counts.cases++;
      counts.perTarget[w.target] = (counts.perTarget[w.target] ?? 0) + 1;
      if (r.timedOut) counts.hangs++;
      else counts.crashes++;
      counts.failures.push(`${w.target} seed ${seed} case ${at}: ${r.timedOut ? "hang" : `crash (${r.signal ?? `exit ${r.code}`})`} ${r.stderr.slice(-600)}`);
      first = at + 1;
    }
  };
  const queue = [...work];
  const jobs = Math.max(1, options.jobs ?? 1);
  await Promise.all(Array.from({ length: jobs }, async () => {
    for (let w = queue.shift(); w; w = queue.shift()) await runOne(w);
  }));
  counts.seconds = (Date.now() - started) / 1000;
  return counts;
}

export function summary(c: FuzzCounts): string {
  const per = Object.entries(c.perTarget).map(([t, n]) => `${t} ${n}`).join(", ");
  return `fuzz: ${c.cases} cases (${per}) in ${c.seconds.toFixed(1)} s: ${c.crashes} crashes, ${c.hangs} hangs, ${c.nonGpudfErrors} non-GpudfErrors`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const counts = await fuzz({
    cases: Number(arg("cases") ?? 10_000),
    seed: Number(arg("seed") ?? 1),
    targets: arg("targets")?.split(","),
    batch: arg("batch") ? Number(arg("batch")) : undefined,
    timeoutMs: arg("timeout-ms") ? Number(arg("timeout-ms")) : undefined,
    jobs: arg("jobs") ? Number(arg("jobs")) : undefined,
  });
  console.log(summary(counts));
  for (const f of counts.failures.slice(0, 50)) console.log("  " + f);
  process.exit(counts.crashes + counts.hangs + counts.nonGpudfErrors === 0 ? 0 : 1);
}
