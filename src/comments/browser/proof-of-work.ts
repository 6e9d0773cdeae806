// The proof of work of the comment form, as the server checks it (src/forms/spam/proof-of-work.ts, ALTCHA's
// deterministic SHA-256 mode): the counter whose SHA-256 of salt, nonce and the counter as four big-endian bytes
// starts with the challenge's `keyPrefix`. Solved in slices between which the page stays responsive.
import { sha256 } from './sha256.js';

/** A challenge as `GET /api/blog/comments/challenge` answers it; the widget reads these parameters only. */
export interface Challenge {
  parameters: { nonce: string; salt: string; keyPrefix: string; data?: { i?: number; e?: number } };
  signature?: string;
}

/** How many hashes run before the page gets a turn. */
const SLICE = 4000;

/** The `altcha` field that proves the work done on `challenge`: base64 of JSON `{challenge, solution}`. */
export async function solve(challenge: Challenge): Promise<string> {
  const { nonce, salt, keyPrefix } = challenge.parameters;
  const head = bytesOf(salt + nonce);
  const message = new Uint8Array(head.length + 4);
  message.set(head);
  const view = new DataView(message.buffer);
  const prefix = bytesOf(keyPrefix.length % 2 ? keyPrefix.slice(0, -1) : keyPrefix);
  const odd = keyPrefix.length % 2 ? keyPrefix.toLowerCase() : '';
  for (let counter = 0; counter <= 0xffffffff; counter++) {
    if (counter % SLICE === 0 && counter > 0) await nextTurn();
    view.setUint32(head.length, counter);
    const key = sha256(message);
    if (!startsWith(key, prefix)) continue;
    const derivedKey = hexOf(key);
    if (derivedKey.startsWith(odd)) return btoa(JSON.stringify({ challenge, solution: { counter, derivedKey } }));
  }
  throw new Error('no solution');
}

function bytesOf(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
  return bytes;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

function hexOf(bytes: Uint8Array): string {
  let hex = '';
  for (let i = 0; i < bytes.length; i++) hex += (bytes[i]! < 16 ? '0' : '') + bytes[i]!.toString(16);
  return hex;
}

/** A turn of the event loop without setTimeout's clamp to 4 ms. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(0);
  });
}
