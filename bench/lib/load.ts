// One load run against one URL, with wrk where installed (lighter on a shared machine) or autocannon from npm.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isInstalled, REPO_ROOT, spawnPinned, type Placement } from './processes.js';

export type LoadTool = 'wrk' | 'autocannon';

export interface LoadRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  tool: LoadTool;
  connections: number;
  seconds: number;
  placement: Placement;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses whose status was not 2xx/3xx. */
  non2xx: number;
  /** Connect, read, write errors and time-outs. */
  errors: number;
}

/** wrk unless BENCH_LOADGEN says otherwise or wrk is not installed. */
export function chooseLoadTool(env: NodeJS.ProcessEnv = process.env): LoadTool {
  if (env.BENCH_LOADGEN === 'autocannon') return 'autocannon';
  if (env.BENCH_LOADGEN === 'wrk' && !isInstalled('wrk')) throw new Error('BENCH_LOADGEN=wrk but wrk is not installed');
  return isInstalled('wrk') ? 'wrk' : 'autocannon';
}

/** Runs the load generator in its own process for `seconds` and returns what it measured. */
export async function runLoad(request: LoadRequest, options: LoadOptions): Promise<LoadResult> {
  return options.tool === 'wrk' ? runWrk(request, options) : runAutocannon(request, options);
}

async function runWrk(request: LoadRequest, options: LoadOptions): Promise<LoadResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'postbox-wrk-'));
  try {
    const script = path.join(dir, 'request.lua');
    writeFileSync(script, wrkScript(request));
    const output = await collect(
      options.placement,
      'wrk',
      ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '10s', '-s', script, request.url],
    );
    const match = /^RESULT (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)$/m.exec(output);
    if (!match) throw new Error(`unexpected wrk output:\n${output}`);
    const [requests, durationUs, p50Us, p99Us, errors, non2xx] = match.slice(1).map(Number) as number[];
    return {
      requests: requests as number,
      rps: (requests as number) / ((durationUs as number) / 1e6),
      p50Ms: (p50Us as number) / 1000,
      p99Ms: (p99Us as number) / 1000,
      non2xx: non2xx as number,
      errors: errors as number,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function wrkScript(request: LoadRequest): string {
  const lines = [`wrk.method = ${luaString(request.method ?? 'GET')}`];
  if (request.body !== undefined) lines.push(`wrk.body = ${luaString(request.body)}`);
  for (const [name, value] of Object.entries(request.headers ?? {})) lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format("\\nRESULT %d %d %d %d %d %d\\n", summary.requests, summary.duration,',
    '    latency:percentile(50), latency:percentile(99), e.connect + e.read + e.write + e.timeout, e.status))',
    'end',
  );
  return `${lines.join('\n')}\n`;
}

function luaString(value: string): string {
  return `"${value.replace(/[\\"]/g, (character) => `\\${character}`).replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`;
}

async function runAutocannon(request: LoadRequest, options: LoadOptions): Promise<LoadResult> {
  const args = [
    path.join(REPO_ROOT, 'node_modules', 'autocannon', 'autocannon.js'),
    '-c', String(options.connections), '-d', String(options.seconds), '-j', '-n', '-m', request.method ?? 'GET',
  ];
  for (const [name, value] of Object.entries(request.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (request.body !== undefined) args.push('-b', request.body);
  args.push(request.url);
  const output = await collect(options.placement, process.execPath, args);
  const result = JSON.parse(output.slice(output.indexOf('{'))) as {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    requests: { total: number };
    latency: { p50: number; p99: number };
  };
  return {
    requests: result.requests.total,
    rps: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

function collect(placement: Placement, command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawnPinned(placement, command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${command} exited with ${code}: ${stderr || stdout}`));
    });
  });
}

