// Measures the rate limiter's heap per tracked address; run by rate-limiter-memory.ts as
// `node --expose-gc --import tsx bench/rate-limiter-probe.ts <module> <ipv4|ipv6> <count>`; prints one JSON line.
import { pathToFileURL } from 'node:url';

interface Limiter {
  take(key: string, nowMs: number): unknown;
  size(): number;
}

const [modulePath, family = 'ipv4', countText = '200000'] = process.argv.slice(2);
const count = Number(countText);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const collect = gc;

function heapUsed(): number {
  for (let pass = 0; pass < 4; pass += 1) collect();
  return process.memoryUsage().heapUsed;
}

/** The i-th address of a wave: distinct across waves, freshly built strings as a request would bring. */
function address(wave: number, index: number): string {
  if (family === 'ipv6') return `2001:db8:${wave.toString(16)}:${(index >>> 16).toString(16)}:${(index & 0xffff).toString(16)}:1a2b:3c4d:${(index % 251).toString(16)}`;
  return `${10 + wave}.${(index >>> 16) & 255}.${(index >>> 8) & 255}.${index & 255}`;
}

const limiterModule = (await import(pathToFileURL(modulePath as string).href)) as { createRateLimiter(perHour: number): Limiter };
const HOUR = 3_600_000;
const start = Date.UTC(2025, 0, 1);

const before = heapUsed();
const limiter = limiterModule.createRateLimiter(10);
for (let index = 0; index < count; index += 1) limiter.take(address(0, index), start + index);
const afterFirstWave = heapUsed();
const sizeAfterFirstWave = limiter.size();

// Two hours later every bucket of the first wave has refilled completely: a second wave of new addresses
// must replace them, not add to them.
let largestDuringSecondWave = 0;
for (let index = 0; index < count; index += 1) {
  limiter.take(address(1, index), start + 2 * HOUR + index);
  if (index % 1000 === 0) largestDuringSecondWave = Math.max(largestDuringSecondWave, limiter.size());
}
const afterSecondWave = heapUsed();
const sizeAfterSecondWave = limiter.size();
limiter.take(address(2, 0), start + 4 * HOUR);
const sizeAfterQuietHours = limiter.size();

process.stdout.write(
  `${JSON.stringify({
    family,
    count,
    bytesPerAddress: (afterFirstWave - before) / sizeAfterFirstWave,
    heapFirstWave: afterFirstWave - before,
    heapSecondWave: afterSecondWave - before,
    sizeAfterFirstWave,
    largestDuringSecondWave,
    sizeAfterSecondWave,
    sizeAfterQuietHours,
  })}\n`,
);
