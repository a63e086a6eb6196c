// A description of the machine, for the results file and the README.
import { execFileSync } from 'node:child_process';
import { cpus, hostname, totalmem } from 'node:os';

function gpuName() {
  try {
    return execFileSync('nvidia-smi', ['--query-gpu=name,driver_version', '--format=csv,noheader'], { encoding: 'utf8', timeout: 10_000 }).trim().split('\n')[0] || null;
  } catch {
    return null;
  }
}

export function machineInfo() {
  const c = cpus();
  return {
    host: process.env.BENCH_HOST ?? hostname(),
    cpu: c[0]?.model?.trim() ?? 'unknown CPU',
    cores: c.length,
    mem_gb: Math.round(totalmem() / 2 ** 30),
    gpu: gpuName(),
    node: process.version,
  };
}
