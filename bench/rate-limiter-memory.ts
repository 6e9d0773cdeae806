// The rate limiter's memory with 200,000 distinct client addresses, keyed as the forms service keys them (an IPv6
// address by its /64), counting the heap and the typed arrays' buffers (target: at most 150 bytes per tracked
// address), and the proof that fully refilled buckets are dropped, so memory stays bounded
// (docs/submission-rules.md "Rate limit").
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from './lib/context.js';
import { benchScriptArgs, REPO_ROOT } from './lib/processes.js';
import { formatBytes, formatCount } from './lib/report.js';

const SECTION = 'forms';
const ADDRESSES = 200_000;
const BYTES_LIMIT = 150;

interface ProbeResult {
  family: string;
  count: number;
  /** Heap and array buffers. */
  bytesPerAddress: number;
  heapBytesPerAddress: number;
  rssBytesPerAddress: number;
  heapFirstWave: number;
  heapSecondWave: number;
  sizeAfterFirstWave: number;
  largestDuringSecondWave: number;
  sizeAfterSecondWave: number;
  sizeAfterQuietHours: number;
}

/** Runs the probe for IPv4 and IPv6 keys, each in a fresh process, and adds the figures. */
export async function benchRateLimiterMemory(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Forms: rate limiter memory, 200,000 distinct addresses');
  const modulePath = path.join(REPO_ROOT, 'src', 'forms', 'rules', 'rate-limiter.ts');
  if (!existsSync(modulePath)) {
    report.add({ section: SECTION, name: 'rate limiter bytes per address', value: 'n/a', target: `<= ${BYTES_LIMIT} bytes`, verdict: 'FAIL', detail: `${modulePath} is missing` });
    return;
  }
  for (const family of ['ipv4', 'ipv6']) {
    const result = await probe(modulePath, family);
    report.add({
      section: SECTION,
      name: `rate limiter bytes per ${family} address`,
      value: `${result.bytesPerAddress.toFixed(0)} bytes`,
      target: `<= ${BYTES_LIMIT} bytes`,
      verdict: result.bytesPerAddress <= BYTES_LIMIT && result.sizeAfterFirstWave === ADDRESSES ? 'PASS' : 'FAIL',
      detail:
        `${formatBytes(result.heapFirstWave)} for ${formatCount(result.sizeAfterFirstWave)} tracked buckets (heapUsed + arrayBuffers after/before, --expose-gc); ` +
        `JS heap alone ${result.heapBytesPerAddress.toFixed(0)} B, resident ${result.rssBytesPerAddress.toFixed(0)} B per address`,
    });
    const bounded =
      result.largestDuringSecondWave <= ADDRESSES + 1000 && result.sizeAfterSecondWave === ADDRESSES && result.sizeAfterQuietHours === 1;
    report.add({
      section: SECTION,
      name: `refilled buckets dropped (${family})`,
      value: `${formatCount(result.sizeAfterSecondWave)} tracked`,
      target: `<= ${formatCount(ADDRESSES)}`,
      verdict: bounded && result.heapSecondWave <= result.heapFirstWave * 1.25 ? 'PASS' : 'FAIL',
      detail:
        `a second wave of ${formatCount(ADDRESSES)} new addresses 2 h later: at most ${formatCount(result.largestDuringSecondWave)} tracked, ` +
        `memory ${formatBytes(result.heapSecondWave)} (first wave ${formatBytes(result.heapFirstWave)}); 2 quiet hours later one take leaves ${result.sizeAfterQuietHours}`,
    });
  }
}

function probe(modulePath: string, family: string): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...benchScriptArgs('rate-limiter-probe.ts', ['--expose-gc']), modulePath, family, String(ADDRESSES)], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`rate-limiter-probe exited with ${code}`));
      else resolve(JSON.parse(output.trim().split('\n').pop() as string) as ProbeResult);
    });
  });
}
