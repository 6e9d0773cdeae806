// A real nginx (Debian's `nginx-light`; .ci/run installs it) as the load balancer in front of several
// `postbox serve` replicas, running unprivileged or as root from a temp folder (`daemon off`, its pid, error log
// and temp files in that folder). A missing nginx fails the test that needs it, never skips it.
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { findFreePort } from './smtp-server.js';
import { waitFor } from './wait.js';

export interface BalancerOptions {
  /** The folder nginx runs in (its config, pid, logs and temp files). */
  dir: string;
  /** host:port of each replica. */
  upstreams: string[];
  /** Idle connections nginx keeps open to the replicas (0: a new connection per request). */
  keepalive?: number;
  /** The X-Forwarded-For nginx sends (an nginx expression); `$proxy_add_x_forwarded_for` unless given. */
  forwardedFor?: string;
  /** More lines for the `http` block (a `map` the forwardedFor expression uses). */
  extraHttp?: string[];
  /** How a command is started (the bench pins it to cores); plain spawn otherwise. */
  spawnProcess?: (command: string, args: string[], options: SpawnOptions) => ChildProcess;
}

export interface RunningBalancer {
  /** http://127.0.0.1:<port> */
  base: string;
  pid: number;
  stop(): Promise<void>;
}

/** The nginx binary: `nginx` on PATH or /usr/sbin/nginx; throws naming the package when neither is there. */
export function findNginxBinary(): string {
  if (spawnSync('sh', ['-c', 'command -v nginx'], { stdio: 'ignore' }).status === 0) return 'nginx';
  if (existsSync('/usr/sbin/nginx')) return '/usr/sbin/nginx';
  throw new Error('nginx not found on PATH nor at /usr/sbin/nginx: install the Debian package "nginx-light"');
}

/**
 * The first lines of every nginx.conf of the tests and the bench, up to the opening of the `http` block and its
 * temp paths: nginx runs from `dir` (pid, error log and temp files there; `dir/temp` must exist), unprivileged
 * or as root, with one worker and no access log.
 */
export function nginxPreamble(dir: string): string[] {
  const temp = path.join(dir, 'temp');
  return [
    process.getuid?.() === 0 ? 'user root;' : '',
    'worker_processes 1;',
    `error_log ${path.join(dir, 'error.log')} warn;`,
    `pid ${path.join(dir, 'nginx.pid')};`,
    'events { worker_connections 4096; }',
    'http {',
    '  access_log off;',
    `  client_body_temp_path ${temp}/body; proxy_temp_path ${temp}/proxy; fastcgi_temp_path ${temp}/fastcgi;`,
    `  uwsgi_temp_path ${temp}/uwsgi; scgi_temp_path ${temp}/scgi;`,
  ];
}

/**
 * The nginx.conf of the balancer. X-Forwarded-For gets the peer appended ($proxy_add_x_forwarded_for), so the
 * replicas (trust_proxy_headers = 2) take the address the proxy in front of nginx (here: the test) named.
 * `proxy_next_upstream error timeout` sends a request on to another replica when one cannot be connected to;
 * a POST already sent to a replica that dies is NOT sent again (no `non_idempotent`), so a submission is never
 * made twice: its client gets a 502 and may retry.
 */
export function balancerConfig(options: {
  dir: string;
  port: number;
  upstreams: string[];
  keepalive: number;
  forwardedFor?: string;
  extraHttp?: string[];
}): string {
  const { dir, port, upstreams, keepalive, forwardedFor = '$proxy_add_x_forwarded_for', extraHttp = [] } = options;
  return [
    ...nginxPreamble(dir),
    ...extraHttp.map((line) => `  ${line}`),
    '  upstream postbox {',
    ...upstreams.map((address) => `    server ${address} max_fails=1 fail_timeout=1s;`),
    // Idle connections closed long before postbox's 30 s idle time-out closes them: never a POST on a closing one.
    keepalive > 0 ? `    keepalive ${keepalive}; keepalive_timeout 4s;` : '',
    '  }',
    '  server {',
    `    listen 127.0.0.1:${port};`,
    '    location / {',
    '      proxy_pass http://postbox;',
    '      proxy_http_version 1.1;',
    `      proxy_set_header Connection ${keepalive > 0 ? '""' : 'close'};`,
    '      proxy_set_header Host $host;',
    `      proxy_set_header X-Forwarded-For ${forwardedFor};`,
    '      proxy_next_upstream error timeout;',
    '      proxy_connect_timeout 2s;',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}

/** Writes the config, starts nginx in the foreground and waits until it answers. */
export async function startNginxBalancer(options: BalancerOptions): Promise<RunningBalancer> {
  const binary = findNginxBinary();
  await mkdir(path.join(options.dir, 'temp'), { recursive: true });
  const port = await findFreePort();
  const confFile = path.join(options.dir, 'nginx.conf');
  const { upstreams, keepalive = 0, forwardedFor, extraHttp } = options;
  await writeFile(confFile, balancerConfig({ dir: options.dir, port, upstreams, keepalive, forwardedFor, extraHttp }));
  const start = options.spawnProcess ?? ((command, args, spawnOptions) => spawn(command, args, spawnOptions));
  const child = start(binary, ['-p', options.dir, '-c', confFile, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor('nginx to answer', async () => {
      if (child.exitCode !== null) {
        const log = await readFile(path.join(options.dir, 'error.log'), 'utf8').catch(() => '');
        throw new Error(`nginx exited (${child.exitCode}): ${stderr}${log}`);
      }
      const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
      await response?.arrayBuffer();
      return response ? true : undefined;
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, pid: child.pid as number, stop };
}
