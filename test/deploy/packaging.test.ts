// The production packaging of docs/production.md: the Dockerfile's stages, user, volume and HEALTHCHECK (whose
// command is run against a real /health), the configuration the image starts with, compose.yaml and the cluster's
// compose file as YAML with the services the page names, the cluster's nginx config, and the systemd unit checked
// by systemd-analyze itself.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';
import { createStatusRoutes } from '../../src/forms/http/status-routes.js';
import { createMetrics } from '../../src/forms/metrics.js';
import { errorAnswer } from '../../src/http/error-catalogue.js';
import { createFrontDoor } from '../../src/http/front-door.js';
import { listenHttp, type RunningServer } from '../../src/http/http-server.js';
import { captureLogs } from '../support/log-capture.js';
import { REPO_ROOT } from '../support/postbox-process.js';
import { createTempDir } from '../support/temp-dir.js';

const read = (file: string) => readFile(path.join(REPO_ROOT, file), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined, comments and blank lines left out, by stage. */
function dockerStages(text: string): Array<{ from: string; name: string | undefined; instructions: Instruction[] }> {
  const joined = text.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  const stages: Array<{ from: string; name: string | undefined; instructions: Instruction[] }> = [];
  /** ARG defaults given before the first FROM, which FROM lines may name. */
  const globalArgs = new Map<string, string>();
  for (const line of joined) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (keyword.toUpperCase() === 'ARG' && stages.length === 0) {
      const [name = '', value = ''] = args.split('=');
      globalArgs.set(name, value);
    } else if (keyword.toUpperCase() === 'FROM') {
      const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      const from = (match?.[1] ?? args).replace(/\$\{(\w+)\}/g, (_all, name: string) => globalArgs.get(name) ?? '');
      stages.push({ from, name: match?.[2], instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

const argsOf = (instructions: Instruction[], keyword: string) => instructions.filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.args);

describe('Dockerfile', () => {
  let stages: ReturnType<typeof dockerStages>;
  before(async () => {
    stages = dockerStages(await read('Dockerfile'));
  });

  it('builds with every dependency and runs with the production ones only, from the build stage\'s dist/', () => {
    assert.ok(stages.length >= 2, 'two stages at least');
    const [build, runtime] = [stages[0]!, stages.at(-1)!];
    assert.ok(build.name, 'the build stage is named');
    const buildRuns = argsOf(build.instructions, 'RUN').join('\n');
    assert.match(buildRuns, /npm ci(?![^\n]*--omit=dev)/, 'the build installs development dependencies');
    assert.match(buildRuns, /npm run build/);
    const runtimeRuns = argsOf(runtime.instructions, 'RUN').join('\n');
    assert.match(runtimeRuns, /npm ci --omit=dev/);
    assert.doesNotMatch(runtimeRuns, /npm run build|npm ci(?![^\n]*--omit=dev)/, 'nothing is built, no development dependency installed');
    assert.ok(argsOf(runtime.instructions, 'COPY').some((args) => args.startsWith(`--from=${build.name} `) && args.includes('dist')));
    assert.match(build.from, /node/);
    assert.equal(runtime.from, build.from, 'the same Node.js in both');
  });

  it('runs as a user of its own, never root', () => {
    const runtime = stages.at(-1)!;
    const users = argsOf(runtime.instructions, 'USER');
    assert.equal(users.length, 1);
    const [user, group] = users[0]!.split(':');
    assert.ok(user && !['root', '0'].includes(user) && group !== '0', `USER ${users[0]}`);
    assert.match(argsOf(runtime.instructions, 'RUN').join('\n'), new RegExp(`useradd[^\\n]*--uid ${user}`));
    // The user is set after the last RUN: nothing of the image is made as that user by accident.
    const last = runtime.instructions.map((instruction) => instruction.keyword);
    assert.ok(last.lastIndexOf('USER') > last.lastIndexOf('RUN'));
  });

  it('keeps data_dir in a volume, starts `serve` with the configuration it documents, and that configuration loads', async () => {
    const runtime = stages.at(-1)!;
    const volume = argsOf(runtime.instructions, 'VOLUME').join(' ');
    assert.match(volume, /\/var\/lib\/postbox/);
    assert.deepEqual(JSON.parse(argsOf(runtime.instructions, 'ENTRYPOINT')[0]!), ['/app/dist/cli.js']);
    assert.deepEqual(JSON.parse(argsOf(runtime.instructions, 'CMD')[0]!), ['serve', '--config', '/etc/postbox/config.toml']);
    assert.ok(argsOf(runtime.instructions, 'COPY').includes('deploy/config.toml /etc/postbox/config.toml'));
    const loaded = parseConfigText(await read('deploy/config.toml'), {}, '/etc/postbox');
    assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.problems));
    assert.equal(loaded.config.data_dir, '/var/lib/postbox', 'data_dir is the volume');
    assert.equal(loaded.config.blog?.content_dir, '/srv/postbox/posts');
    assert.match(argsOf(runtime.instructions, 'RUN').join('\n'), /\/srv\/postbox\/posts/, 'the image makes content_dir');
    // The ports it exposes are the ones the configuration listens on.
    const exposed = argsOf(runtime.instructions, 'EXPOSE').join(' ').split(/\s+/).sort();
    assert.deepEqual(exposed, [String(loaded.config.server.listen.port), String(loaded.config.blog?.listen.port)].sort());
    const ignored = (await read('.dockerignore')).split('\n').map((line) => line.trim());
    for (const name of ['node_modules', 'dist', 'data', '.git']) assert.ok(ignored.includes(name), `.dockerignore leaves out ${name}`);
    assert.ok(!ignored.some((line) => ['src', 'deploy', 'scripts', 'package.json'].includes(line)), 'the build reads these');
  });

  describe('HEALTHCHECK', () => {
    let server: RunningServer;
    let unavailable: string[] = [];
    before(async () => {
      // The forms service's /health, 503 while the test says a part is away.
      const logs = captureLogs();
      const handle = createFrontDoor({
        routes: createStatusRoutes({ formCount: 1, metrics: createMetrics(['/contact']), metricsToken: undefined, unavailableParts: () => unavailable }),
        answers: { notFound: () => errorAnswer('not_found'), badPath: () => errorAnswer('bad_request'), methodNotAllowed: (allow) => ({ status: 405, headers: { allow } }), internalError: () => errorAnswer('internal_error') },
        clientAddressOf: () => '127.0.0.1',
        requestLog: logs.requestLog,
        logger: logs.logger,
      });
      server = await listenHttp(handle, { host: '127.0.0.1', port: 0 }, { maxBodyBytes: 0 });
    });
    after(() => server.close(0));

    /** The HEALTHCHECK's command run as Docker runs it, against `url`; its exit code. */
    async function runCheck(url: string): Promise<number | null> {
      const stages = dockerStages(await read('Dockerfile'));
      const healthcheck = argsOf(stages.at(-1)!.instructions, 'HEALTHCHECK')[0] ?? '';
      const command = JSON.parse(healthcheck.slice(healthcheck.indexOf('CMD ') + 4)) as string[];
      assert.equal(command[0], 'node', 'no curl in a slim image');
      // Not spawnSync: the server answering it runs in this process.
      const child = spawn(process.execPath, command.slice(1), { env: { ...process.env, POSTBOX_HEALTH_URL: url }, stdio: 'ignore', timeout: 15_000 });
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    }

    it('is node fetching /health on the forms port, within the options Docker takes', async () => {
      const runtime = dockerStages(await read('Dockerfile')).at(-1)!;
      const healthcheck = argsOf(runtime.instructions, 'HEALTHCHECK');
      assert.equal(healthcheck.length, 1);
      assert.match(healthcheck[0]!, /^(--(interval|timeout|start-period|retries)=\S+ )+CMD \[/);
      assert.ok(argsOf(runtime.instructions, 'ENV').includes('POSTBOX_HEALTH_URL=http://127.0.0.1:8080/health'));
    });

    it('passes while /health is 200, fails on a 503 and when nothing listens', async () => {
      unavailable = [];
      assert.equal(await runCheck(`${server.address}/health`), 0);
      unavailable = ['postgres'];
      assert.equal(await runCheck(`${server.address}/health`), 1);
      unavailable = [];
      assert.equal(await runCheck('http://127.0.0.1:9/health'), 1);
    });
  });
});

describe('compose files', () => {
  type Compose = { services: Record<string, Record<string, unknown>>; volumes?: Record<string, unknown> };
  let single: Compose;
  let cluster: Compose;
  let production: string;
  before(async () => {
    single = parseYaml(await read('compose.yaml'), { merge: true }) as Compose;
    cluster = parseYaml(await read('deploy/compose.cluster.yaml'), { merge: true }) as Compose;
    production = await read('docs/production.md');
  });

  /** Host paths of a service's bind mounts, resolved against the compose file's folder. */
  const bindSources = (service: Record<string, unknown>, folder: string) =>
    ((service.volumes as string[] | undefined) ?? []).map((volume) => volume.split(':')[0]!).filter((source) => source.startsWith('.')).map((source) => path.join(REPO_ROOT, folder, source));

  it('compose.yaml runs one process by default, from this Dockerfile, data_dir in a volume', () => {
    assert.deepEqual(Object.keys(single.services), ['postbox']);
    const postbox = single.services.postbox!;
    assert.equal(postbox.build, '.');
    assert.equal(postbox.profiles, undefined, 'started by a plain `docker compose up`');
    assert.ok((postbox.volumes as string[]).includes('postbox-data:/var/lib/postbox'));
    assert.ok(Object.hasOwn(single.volumes ?? {}, 'postbox-data'));
    assert.deepEqual(postbox.ports, ['8080:8080', '8081:8081']);
    for (const source of bindSources(postbox, '.')) assert.ok(existsSync(source), source);
    assert.match(production, /`compose\.yaml`/);
    assert.match(production, /the service `postbox`/);
  });

  it('the cluster file has PostgreSQL, Redis, two replicas of the image and nginx, as the page names them', () => {
    const names = Object.keys(cluster.services).sort();
    assert.deepEqual(names, ['nginx', 'postgres', 'redis', 'replica-1', 'replica-2']);
    for (const name of names) assert.match(production, new RegExp(`\`${name}\``), `docs/production.md names ${name}`);
    for (const replica of ['replica-1', 'replica-2']) {
      const service = cluster.services[replica]!;
      assert.equal(service.build, '..', 'the image of the Dockerfile');
      for (const source of bindSources(service, 'deploy')) assert.ok(existsSync(source), source);
      assert.ok((service.volumes as string[]).some((volume) => volume.endsWith(':/var/lib/postbox')), 'a data_dir of its own');
      assert.deepEqual(Object.keys(service.depends_on as object).sort(), ['postgres', 'redis']);
    }
    assert.deepEqual(Object.keys(cluster.services.nginx!.depends_on as object).sort(), ['replica-1', 'replica-2']);
    for (const source of bindSources(cluster.services.nginx!, 'deploy')) assert.ok(existsSync(source), source);
  });

  it('gives each replica exactly what examples/cluster/config.toml reads from the environment', async () => {
    const text = await read('examples/cluster/config.toml');
    const wanted = [...new Set([...text.matchAll(/\$\{([A-Z_]+)\}/g)].map((match) => match[1]!))].sort();
    const environment = cluster.services['replica-1']!.environment as Record<string, string>;
    assert.deepEqual(Object.keys(environment).sort(), wanted);
    // As compose fills ${POSTGRES_PASSWORD:-postbox} in without a .env file.
    const env = Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, value.replace(/\$\{POSTGRES_PASSWORD:-([^}]*)\}/, '$1')]));
    const loaded = parseConfigText(text, env, '/etc/postbox');
    assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.problems));
    assert.equal(loaded.config.server.listen.port, 8080);
    assert.ok((cluster.services['replica-1']!.volumes as string[]).includes('../examples/cluster/config.toml:/etc/postbox/config.toml:ro'));
  });

  it("nginx's configuration balances over the replicas and passes nginx -t", { skip: !existsSync('/usr/sbin/nginx') && 'nginx is not installed' }, async () => {
    const conf = await read('deploy/nginx.cluster.conf');
    const upstreams = [...conf.matchAll(/^\s*server\s+([\w.-]+):(\d+);/gm)].map((match) => `${match[1]}:${match[2]}`);
    assert.deepEqual(upstreams, ['replica-1:8080', 'replica-2:8080']);
    assert.match(conf, /proxy_set_header X-Forwarded-For \$remote_addr;/);
    const temp = await createTempDir('nginx-cluster-conf');
    try {
      // The replicas' names resolve inside compose only.
      await writeFile(path.join(temp.dir, 'nginx.conf'), conf.replace(/replica-\d/g, '127.0.0.1'));
      const result = spawnSync('/usr/sbin/nginx', ['-t', '-q', '-p', temp.dir, '-c', path.join(temp.dir, 'nginx.conf')], { encoding: 'utf8' });
      assert.equal(result.status, 0, result.stderr);
    } finally {
      await temp.remove();
    }
  });
});

describe('deploy/postbox.service', () => {
  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  let unit: string;
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  before(async () => {
    unit = await read('deploy/postbox.service');
    temp = await createTempDir('systemd-unit');
  });
  after(() => temp.remove());

  /** The unit's `Key=value` lines, every value of a key. */
  const settings = (text: string) => {
    const found = new Map<string, string[]>();
    for (const line of text.split('\n')) {
      const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
      if (match) found.set(match[1]!, [...(found.get(match[1]!) ?? []), match[2]!]);
    }
    return found;
  };

  /** A copy of the unit whose ExecStart names this machine's node and this checkout's dist/cli.js. */
  async function runnableCopy(): Promise<string> {
    const folder = path.join(temp.dir, 'units');
    await mkdir(folder, { recursive: true });
    const file = path.join(folder, 'postbox.service');
    const execStart = `ExecStart=${process.execPath} ${path.join(REPO_ROOT, 'dist', 'cli.js')} serve --config /etc/postbox/config.toml`;
    await writeFile(file, unit.replace(/^ExecStart=.*$/m, execStart));
    return file;
  }

  it('runs serve from the documented install path as its own user, sandboxed, restarted on failure', async () => {
    const found = settings(unit);
    const one = (key: string) => found.get(key)?.join(' ');
    assert.equal(one('ExecStart'), '/opt/postbox/dist/cli.js serve --config /etc/postbox/config.toml');
    assert.match(await read('docs/production.md'), /\/opt\/postbox\/dist\/cli\.js serve --config \/etc\/postbox\/config\.toml/);
    assert.equal(one('User'), 'postbox');
    assert.equal(one('Group'), 'postbox');
    for (const [key, value] of [
      ['ProtectSystem', 'strict'],
      ['NoNewPrivileges', 'yes'],
      ['ProtectHome', 'yes'],
      ['PrivateTmp', 'yes'],
      ['Restart', 'on-failure'],
      ['StateDirectory', 'postbox'],
    ]) assert.equal(one(key!), value, key);
    assert.ok(found.get('ReadWritePaths')?.includes('/var/lib/postbox'), 'data_dir is writable');
    assert.equal(one('CapabilityBoundingSet'), '', 'no capability');
  });

  it('passes systemd-analyze verify once ExecStart names an executable that exists', { skip: !analyze && 'systemd-analyze is not installed' }, async () => {
    const file = await runnableCopy();
    const verify = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    assert.equal(verify.status, 0, `${verify.stdout}${verify.stderr}`);
    assert.equal(verify.stderr.trim(), '', 'no warning either');
    // And the file as shipped is refused only for its ExecStart, which does not exist on this machine.
    const shipped = path.join(temp.dir, 'postbox.service');
    await writeFile(shipped, unit);
    const refused = spawnSync('systemd-analyze', ['verify', shipped], { encoding: 'utf8' });
    if (!existsSync('/opt/postbox/dist/cli.js')) assert.match(refused.stderr, /\/opt\/postbox\/dist\/cli\.js is not executable/);
  });

  it('rates as a well-sandboxed service in systemd-analyze security', { skip: !analyze && 'systemd-analyze is not installed' }, async () => {
    const file = await runnableCopy();
    const security = spawnSync('systemd-analyze', ['security', '--offline=true', '--no-pager', file], { encoding: 'utf8' });
    const level = /Overall exposure level for postbox\.service: ([\d.]+)/.exec(security.stdout)?.[1];
    assert.ok(level !== undefined, `${security.stdout}${security.stderr}`);
    assert.ok(Number(level) <= 2.5, `exposure ${level}`);
  });
});
