#!/usr/bin/env node
// Prints the CUDA code a binary embeds, from its fat binaries (no CUDA tools needed):
// "sm_80 sm_90 ptx:sm_90" for cubins for sm_80 and sm_90 plus PTX for compute_90; nothing
// for a CPU-only build. Used by pack-gpu.sh to refuse an addon without sm_90 code.
//
//   node bench/lib/cuda-archs.mjs build/Release/gpudf.node
import { readFileSync } from 'node:fs';

const data = readFileSync(process.argv[2]);
const MAGIC = 0xba55ed50; // fat binary header: magic u32, version u16, header size u16, size u64
const found = new Set();
for (let i = data.indexOf(Buffer.from([0x50, 0xed, 0x55, 0xba])); i >= 0; i = data.indexOf(Buffer.from([0x50, 0xed, 0x55, 0xba]), i + 4)) {
  if (i + 16 > data.length || data.readUInt32LE(i) !== MAGIC) continue;
  let p = i + data.readUInt16LE(i + 6);
  const end = p + Number(data.readBigUInt64LE(i + 8));
  // entries: kind u16 (1 PTX, 2 ELF), version u16, header size u32, payload size u64, ...,
  // sm version u32 at byte 28
  while (p + 32 <= Math.min(end, data.length)) {
    const kind = data.readUInt16LE(p), headerSize = data.readUInt32LE(p + 4);
    if (headerSize === 0) break;
    const sm = data.readUInt32LE(p + 28);
    if (kind === 1) found.add(`ptx:sm_${sm}`);
    else if (kind === 2) found.add(`sm_${sm}`);
    p += headerSize + Number(data.readBigUInt64LE(p + 8));
  }
}
console.log([...found].sort().join(' '));
