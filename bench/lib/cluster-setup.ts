// What the cluster bench runs: one file-backed postbox, and replicas on PostgreSQL and Redis, all with the same
// forms, each behind its own nginx (test/support/nginx-balancer.ts) where the bench asks for one.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'smol-toml';
import { startNginxBalancer, type RunningBalancer } from '../../test/support/nginx-balancer.js';
import { spawnPinned, type Placement } from './processes.js';

/** The form without a rate limit (rejected and accepted paths) and the one with a limit (token, then 400). */
export const OPEN_FORM = '/contact';
export const LIMITED_FORM = '/limited';
/** Envelope sender of every postbox in this bench (mail.from). */
export const CLUSTER_SENDER = 'forms@cluster.bench.example';

/** Where a postbox of this bench keeps its records and rate limits. */
export type Backend = { state: 'files' } | { state: 'postgres'; databaseUrl: string; redisUrl: string };

/**
 * The config of one postbox in `dir` (its data_dir `dir/data`). trust_proxy_headers = 2 and /128 IPv6 buckets:
 * behind nginx, each load-generator connection is a client of its own (see balancerFor), so a limited form takes a
 * token on every request and never refuses one; straight from the load generator the client is 127.0.0.1.
 */
export function writeClusterBenchConfig(dir: string, smtpPort: number, backend: Backend): string {
  mkdirSync(dir, { recursive: true });
  const form = { type: 'contact', allowed_origins: ['https://bench.example'] };
  const table = {
    data_dir: path.join(dir, 'data'),
    server: { listen: '127.0.0.1:0', trust_proxy_headers: 2, rate_limit_ipv6_prefix: 128 },
    mail: { transport: 'smtp', from: `Bench Forms <${CLUSTER_SENDER}>`, to: 'owner@cluster.bench.example', smtp: { host: '127.0.0.1', port: smtpPort, secure: false } },
    forms: [
      { ...form, path: OPEN_FORM, rate_limit_per_hour: 0, archive: 'contact.jsonl' },
      { ...form, path: LIMITED_FORM, rate_limit_per_hour: 10_000, archive: 'limited.jsonl' },
    ],
    ...(backend.state === 'postgres'
      ? { rate_limit: { backend: 'redis', url: backend.redisUrl }, state: { backend: 'postgres', url: backend.databaseUrl } }
      : {}),
  };
  const file = path.join(dir, 'config.toml');
  writeFileSync(file, stringify(table));
  return file;
}

/**
 * nginx over `upstreams` on the server cores, with the upstream keep-alive a production set-up has. It names each
 * client connection a client of its own in X-Forwarded-For (an IPv6 address from the documentation prefix made of
 * its port), as the many clients of a real site would be.
 */
export function balancerFor(dir: string, upstreams: string[], placement: Placement): Promise<RunningBalancer> {
  return startNginxBalancer({
    dir,
    upstreams,
    keepalive: 128,
    extraHttp: ['map $remote_port $bench_client { "~^(?<high>\\d)(?<low>\\d{4})$" "2001:db8::$high:$low"; default "2001:db8::$remote_port"; }'],
    forwardedFor: '$bench_client',
    spawnProcess: (command, args, options) => spawnPinned(placement, command, args, options),
  });
}

/** host:port of a base URL (an nginx upstream). */
export function hostPortOf(base: string): string {
  return new URL(base).host;
}
