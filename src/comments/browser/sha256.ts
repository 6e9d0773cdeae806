// SHA-256 (FIPS 180-4) over bytes, synchronous: the proof of work hashes a few hundred thousand short messages, and
// a plain loop does that faster than one promise of crypto.subtle per hash (which a page on plain http lacks too).

const K = new Uint32Array(64);
const INITIAL = new Uint32Array(8);

// The constants are the fractional parts of the square and cube roots of the first primes (FIPS 180-4 4.2.2, 5.3.3).
{
  const fraction = (value: number) => ((value - Math.floor(value)) * 0x100000000) >>> 0;
  let found = 0;
  for (let candidate = 2; found < 64; candidate++) {
    let prime = true;
    for (let divisor = 2; divisor * divisor <= candidate; divisor++) if (candidate % divisor === 0) prime = false;
    if (!prime) continue;
    if (found < 8) INITIAL[found] = fraction(Math.sqrt(candidate));
    K[found++] = fraction(Math.cbrt(candidate));
  }
}

const words = new Uint32Array(64);

/** The SHA-256 digest of `message`. */
export function sha256(message: Uint8Array): Uint8Array {
  const length = message.length;
  const padded = new Uint8Array((((length + 8) >> 6) + 1) << 6);
  padded.set(message);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 4, length * 8);
  const hash = INITIAL.slice();
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) words[i] = view.getUint32(block + i * 4);
    for (let i = 16; i < 64; i++) {
      const w15 = words[i - 15]!;
      const w2 = words[i - 2]!;
      const s0 = rotate(w15, 7) ^ rotate(w15, 18) ^ (w15 >>> 3);
      const s1 = rotate(w2, 17) ^ rotate(w2, 19) ^ (w2 >>> 10);
      words[i] = (words[i - 16]! + s0 + words[i - 7]! + s1) | 0;
    }
    let [a, b, c, d, e, f, g, h] = hash as unknown as number[];
    for (let i = 0; i < 64; i++) {
      const t1 = (h! + (rotate(e!, 6) ^ rotate(e!, 11) ^ rotate(e!, 25)) + ((e! & f!) ^ (~e! & g!)) + K[i]! + words[i]!) | 0;
      const t2 = ((rotate(a!, 2) ^ rotate(a!, 13) ^ rotate(a!, 22)) + ((a! & b!) ^ (a! & c!) ^ (b! & c!))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d! + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    const next = [a, b, c, d, e, f, g, h];
    for (let i = 0; i < 8; i++) hash[i] = hash[i]! + next[i]!;
  }
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  for (let i = 0; i < 8; i++) out.setUint32(i * 4, hash[i]!);
  return digest;
}

function rotate(value: number, bits: number): number {
  return (value >>> bits) | (value << (32 - bits));
}
