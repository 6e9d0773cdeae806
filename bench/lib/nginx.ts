// nginx serving the same bytes as files (where nginx is installed): the "best reference" beside node:http.
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { nginxPreamble } from '../../test/support/nginx-balancer.js';
import { findFreePort } from '../../test/support/smtp-server.js';
import { delay, isInstalled, spawnPinned, type Placement } from './processes.js';

/** One URL (path and query, exactly as requested) with the bytes and headers to answer. */
export interface StaticRoute {
  url: string;
  contentType: string;
  /** Every header postbox answered except those Node adds itself (date, connection, keep-alive). */
  headers: Record<string, string>;
  body: Buffer;
}

export interface RunningNginx {
  base: string;
  /** The master process; its worker is its child. */
  pid: number;
  stop(): Promise<void>;
}

/** The nginx binary, or undefined when it is not installed (or BENCH_NGINX=0 leaves it out). */
export function findNginx(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.BENCH_NGINX === '0') return undefined;
  if (isInstalled('nginx')) return 'nginx';
  return isInstalled('/usr/sbin/nginx') ? '/usr/sbin/nginx' : undefined;
}

/** Writes the routes as files plus an nginx.conf under `dir`, starts one nginx worker and waits for it. */
export async function startNginx(binary: string, dir: string, routes: StaticRoute[], placement: Placement): Promise<RunningNginx> {
  const root = path.join(dir, 'www');
  mkdirSync(root, { recursive: true });
  mkdirSync(path.join(dir, 'temp'), { recursive: true });
  const types = [...new Set(routes.map((route) => route.contentType))];
  const map: string[] = [];
  routes.forEach((route, index) => {
    const file = `/r${index}.t${types.indexOf(route.contentType)}`;
    writeFileSync(path.join(root, file), route.body);
    map.push(`    ${nginxString(route.url)} ${nginxString(file)};`);
  });
  // nginx cannot report a port it picked itself.
  const port = await findFreePort();
  const conf = [
    ...nginxPreamble(dir),
    '  sendfile on;',
    '  keepalive_requests 1000000;',
    `  types { ${types.map((type, index) => `${nginxString(type)} t${index};`).join(' ')} }`,
    '  map_hash_bucket_size 256;',
    '  map $request_uri $bench_file {',
    '    default "/missing";',
    ...map,
    '  }',
    '  server {',
    `    listen 127.0.0.1:${port};`,
    `    root ${root};`,
    '    location / { try_files $bench_file =404; }',
    '  }',
    '}',
  ].join('\n');
  const confFile = path.join(dir, 'nginx.conf');
  writeFileSync(confFile, `${conf}\n`);
  const child = spawnPinned(placement, binary, ['-p', dir, '-c', confFile, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const first = routes[0];
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}${readLog(dir)}`);
    try {
      const response = await fetch(base + (first?.url ?? '/'));
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (attempt > 500) throw new Error(`nginx did not answer: ${stderr}${readLog(dir)}`);
    await delay(10);
  }
  return {
    base,
    pid: child.pid as number,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function nginxString(value: string): string {
  return `"${value.replace(/["\\]/g, (character) => `\\${character}`)}"`;
}

function readLog(dir: string): string {
  try {
    return readFileSync(path.join(dir, 'error.log'), 'utf8');
  } catch {
    return '';
  }
}
