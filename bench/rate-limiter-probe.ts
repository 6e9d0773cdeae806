// Measures the rate limiter's memory per tracked address; run by rate-limiter-memory.ts as
// `node --expose-gc --import tsx bench/rate-limiter-probe.ts <module> <ipv4|ipv6> <count>`; prints one JSON line.
// Keys are what the forms service passes: the addresses through the key function of rate-limit-key.ts beside
// the module (an IPv6 address as its /64). Memory counts the JS heap and the typed arrays' buffers, which live
// outside it, and the process's resident size for comparison.
import { existsSync } from 'node:fs';
import path from 'node:path';
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

interface Memory {
  /** The JS heap and the typed arrays' buffers. */
  used: number;
  heap: number;
  rss: number;
}

function memory(): Memory {
  for (let pass = 0; pass < 4; pass += 1) collect();
  const usage = process.memoryUsage();
  return { used: usage.heapUsed + usage.arrayBuffers, heap: usage.heapUsed, rss: usage.rss };
}

/** The i-th address of a wave: distinct across waves and /64s, freshly built strings as a request would bring. */
function address(wave: number, index: number): string {
  if (family === 'ipv6') return `2001:${(0xdb8 + wave).toString(16)}:${(index >>> 16).toString(16)}:${(index & 0xffff).toString(16)}:1a2b:3c4d:5e6f:${(index % 251).toString(16)}`;
  return `${10 + wave}.${(index >>> 16) & 255}.${(index >>> 8) & 255}.${index & 255}`;
}

const limiterModule = (await import(pathToFileURL(modulePath as string).href)) as { createRateLimiter(perHour: number): Limiter };
const keyModulePath = path.join(path.dirname(modulePath as string), 'rate-limit-key.ts');
const keyOf = existsSync(keyModulePath)
  ? ((await import(pathToFileURL(keyModulePath).href)) as { createRateLimitKey(prefix: number): (address: string) => string }).createRateLimitKey(64)
  : (text: string) => text;
const HOUR = 3_600_000;
const start = Date.UTC(2025, 0, 1);

const before = memory();
const limiter = limiterModule.createRateLimiter(10);
for (let index = 0; index < count; index += 1) limiter.take(keyOf(address(0, index)), start + index);
const afterFirstWave = memory();
const sizeAfterFirstWave = limiter.size();

// Two hours later every bucket of the first wave has refilled completely: a second wave of new addresses
// must replace them, not add to them.
let largestDuringSecondWave = 0;
for (let index = 0; index < count; index += 1) {
  limiter.take(keyOf(address(1, index)), start + 2 * HOUR + index);
  if (index % 1000 === 0) largestDuringSecondWave = Math.max(largestDuringSecondWave, limiter.size());
}
const afterSecondWave = memory();
const sizeAfterSecondWave = limiter.size();
limiter.take(keyOf(address(2, 0)), start + 4 * HOUR);
const sizeAfterQuietHours = limiter.size();

process.stdout.write(
  `${JSON.stringify({
    family,
    count,
    bytesPerAddress: (afterFirstWave.used - before.used) / sizeAfterFirstWave,
    heapBytesPerAddress: (afterFirstWave.heap - before.heap) / sizeAfterFirstWave,
    rssBytesPerAddress: (afterFirstWave.rss - before.rss) / sizeAfterFirstWave,
    heapFirstWave: afterFirstWave.used - before.used,
    heapSecondWave: afterSecondWave.used - before.used,
    sizeAfterFirstWave,
    largestDuringSecondWave,
    sizeAfterSecondWave,
    sizeAfterQuietHours,
  })}\n`,
);
