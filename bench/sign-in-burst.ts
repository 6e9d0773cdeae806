// A burst of anonymous sign-ins beside the forms (docs/admin.md "Signing in"): `postbox serve` with a contact form
// and /admin on its listener, the admin's password hashed as every new one is (scrypt N=2^17). Submissions are timed
// one after another on an idle server, then again while 80 sign-ins with random names, from as many loopback
// addresses, run at once, over and over.
// Passwords are checked on two threads of their own with a short queue, so the submissions keep their idle latency:
// the target is a median within 3 times the idle one plus 50 ms, and none over a second.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { stringify } from 'smol-toml';
import { hashPassword } from '../src/kit/password-hash.js';
import type { BenchContext } from './lib/context.js';
import { BENCH_ORIGIN, FORM_PATH } from './lib/config-files.js';
import { startPostbox } from './lib/processes.js';
import { formatMs } from './lib/report.js';

const SECTION = 'sign-in burst';
const SUBMISSIONS = 40;
const SIGN_INS_AT_ONCE = 80;

/** One request on a fresh connection; resolves with the status and how long it took in milliseconds. */
function request(
  address: string,
  method: string,
  target: string,
  headers: Record<string, string>,
  body: string,
  localAddress?: string,
): Promise<{ status: number; ms: number }> {
  const { hostname: host, port } = new URL(address);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sent = http.request({ host, port, localAddress, method, path: target, headers: { ...headers, 'content-length': Buffer.byteLength(body), connection: 'close' } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchSignInBurst(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Sign-in burst: submissions while 80 anonymous sign-ins run at once');
  const dir = path.join(context.tmpRoot, 'sign-in-burst');
  mkdirSync(dir, { recursive: true });
  const configFile = path.join(dir, 'config.toml');
  const hash = await hashPassword('the owner of the bench site', randomBytes(16));
  writeFileSync(
    configFile,
    stringify({
      data_dir: path.join(dir, 'data'),
      server: { listen: '127.0.0.1:0' },
      mail: { transport: 'file', from: 'Bench Forms <forms@bench.example>', to: 'owner@bench.example' },
      forms: [{ path: FORM_PATH, type: 'contact', allowed_origins: [BENCH_ORIGIN], rate_limit_per_hour: 0, archive: 'contact.jsonl' }],
      admin: { users: [{ name: 'owner', password_hash: hash }] },
    }),
  );
  const postbox = await startPostbox({ configFile, logFile: path.join(dir, 'serve.log'), services: ['forms'], placement: context.cores.server });
  const address = postbox.addresses.forms!;
  const submit = (index: number) =>
    request(address, 'POST', FORM_PATH, { 'content-type': 'application/json', origin: BENCH_ORIGIN }, JSON.stringify({ name: `Bench ${index}`, email: `bench${index}@example.org`, message: 'A message from the bench.' }));
  // From many loopback addresses, as a botnet would: the per-address limit alone does not hold them back.
  let next = 0;
  const signIn = () =>
    request(
      address,
      'POST',
      '/admin/login',
      { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ name: randomBytes(6).toString('hex'), password: 'not the password' }).toString(),
      `127.0.${1 + (Math.floor(next / 250) % 250)}.${2 + (next++ % 250)}`,
    );
  try {
    const idle: number[] = [];
    for (let index = 0; index < SUBMISSIONS; index += 1) idle.push((await submit(index)).ms);
    let bursting = true;
    const statuses = new Map<number, number>();
    const waves = (async () => {
      while (bursting) {
        const answers = await Promise.all(Array.from({ length: SIGN_INS_AT_ONCE }, signIn));
        for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    })();
    const during: number[] = [];
    for (let index = 0; index < SUBMISSIONS; index += 1) during.push((await submit(SUBMISSIONS + index)).ms);
    bursting = false;
    await waves;
    const idleMedian = median(idle);
    const burstMedian = median(during);
    const worst = Math.max(...during);
    const limit = idleMedian * 3 + 50;
    report.add({
      section: SECTION,
      name: 'POST /contact median during the burst, beside idle',
      value: `${formatMs(burstMedian)} (idle ${formatMs(idleMedian)})`,
      target: `< ${formatMs(limit)}, none over 1 s`,
      verdict: burstMedian < limit && worst < 1_000 ? 'PASS' : 'FAIL',
      detail: `${SUBMISSIONS} submissions one after another each time; slowest ${formatMs(worst)} (idle ${formatMs(Math.max(...idle))}); sign-ins answered ${[...statuses].map(([status, count]) => `${count}x ${status}`).join(', ')}`,
    });
  } finally {
    await postbox.stop();
  }
}
