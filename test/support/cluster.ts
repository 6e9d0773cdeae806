// Several real `postbox serve` replicas (the built dist/cli.js) with one config, on one real PostgreSQL and one
// real Redis, behind a real nginx, mailing to a real SMTP sink: the deployment of examples/cluster/ as a test
// fixture (examples/cluster/README.md). A replica can be SIGKILLed and started again on its port, as a crash would.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { writeConfigFile, type TomlTable } from './config.js';
import { startNginxBalancer, type RunningBalancer } from './nginx-balancer.js';
import { startPostboxServe, type ProcessLogLine, type ServeProcess } from './postbox-process.js';
import { startPostgresServer, type TestPostgres } from './postgres-server.js';
import { startRedisServer, type TestRedis } from './redis-server.js';
import { findFreePort, startSmtpServer, type TestSmtpServer } from './smtp-server.js';
import { createTempDir } from './temp-dir.js';

export interface ClusterOptions {
  replicas: number;
  /** The [[forms]] of the shared config. */
  forms: TomlTable[];
  /**
   * Markdown files (name to text) of a blog `content_dir` all replicas share: with them the config has a [blog]
   * (each replica's on a port of its own) and a [site], so `postbox newsletter send` can send a post.
   */
  posts?: Record<string, string>;
}

export interface ClusterReplica {
  /** 127.0.0.1:<port>, the same across restarts (nginx's upstream). */
  address: string;
  /** http://127.0.0.1:<port>, to ask this replica directly. */
  base: string;
  /** The running process, undefined while killed. */
  process: ServeProcess | undefined;
  /** Every process this replica has had, killed ones included, for their logs. */
  processes: ServeProcess[];
  /** The request log lines of every process of this replica (docs/forms-api.md "Logs"). */
  requestLines(): ProcessLogLine[];
}

export interface TestCluster {
  /** nginx: http://127.0.0.1:<port> */
  base: string;
  replicas: ClusterReplica[];
  postgres: TestPostgres;
  redis: TestRedis;
  smtp: TestSmtpServer;
  /** The config file every replica runs. */
  configFile: string;
  /** The environment replica `index` runs with (its address and data_dir): for a `postbox` command on the config. */
  envOf(index: number): NodeJS.ProcessEnv;
  /** A query on the replicas' database (the test's own pool). */
  query<Row extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<Row[]>;
  /** SIGKILLs replica `index` (no graceful stop). */
  kill(index: number): Promise<void>;
  /** Starts replica `index` again on its port, after kill. */
  restart(index: number): Promise<void>;
  close(): Promise<void>;
}

/** The one config every replica runs; its address and data_dir come from the environment. */
export function clusterConfig(smtpPort: number, forms: TomlTable[], contentDir?: string): TomlTable {
  const blog: TomlTable = contentDir
    ? { site: { title: 'The Garden', base_url: 'https://example.com' }, blog: { listen: '127.0.0.1:0', content_dir: contentDir, post_url: '/blog/{slug}' } }
    : {};
  return {
    // Every record is in PostgreSQL and the rate limits in Redis: data_dir holds nothing shared. Each replica
    // still has a folder of its own, as on machines of their own.
    data_dir: '${POSTBOX_DATA_DIR}',
    // Behind nginx, itself behind the client's proxy (here the test, which sets X-Forwarded-For): two hops.
    // The links of newsletter mails are built on public_url.
    server: { listen: '${POSTBOX_LISTEN}', trust_proxy_headers: 2, public_url: 'https://forms.example.com' },
    // send_per_minute = 0: a campaign goes at the SMTP sink's pace.
    mail: { transport: 'smtp', from: 'Forms <forms@example.com>', to: 'owner@example.com', send_per_minute: 0, smtp: { host: '127.0.0.1', port: smtpPort } },
    forms,
    rate_limit: { backend: 'redis', url: '${REDIS_URL}' },
    state: { backend: 'postgres', url: '${DATABASE_URL}' },
    ...blog,
  };
}

/** Starts PostgreSQL, Redis, the SMTP sink, `replicas` postbox processes and nginx in front of them. */
export async function startCluster(options: ClusterOptions): Promise<TestCluster> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const cleanUp = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const temp = await createTempDir('cluster');
    cleanups.push(() => temp.remove());
    const postgres = await startPostgresServer();
    cleanups.push(() => postgres.close());
    const redis = await startRedisServer();
    cleanups.push(() => redis.close());
    const smtp = await startSmtpServer();
    cleanups.push(() => smtp.close());
    const pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
    // An idle connection dropped by a stopped server is an expected event here, not a crash.
    pool.on('error', () => undefined);
    cleanups.push(() => pool.end());
    let contentDir: string | undefined;
    if (options.posts) {
      contentDir = path.join(temp.dir, 'posts');
      await mkdir(contentDir);
      for (const [name, text] of Object.entries(options.posts)) await writeFile(path.join(contentDir, name), text);
    }
    const configFile = await writeConfigFile(temp.dir, clusterConfig(smtp.port, options.forms, contentDir));

    const replicas: ClusterReplica[] = [];
    const envOf: NodeJS.ProcessEnv[] = [];
    for (let index = 0; index < options.replicas; index += 1) {
      const address = `127.0.0.1:${await findFreePort()}`;
      const dataDir = path.join(temp.dir, `replica-${index + 1}`);
      await mkdir(dataDir, { recursive: true });
      envOf.push({ ...process.env, POSTBOX_LISTEN: address, POSTBOX_DATA_DIR: dataDir, DATABASE_URL: postgres.url, REDIS_URL: redis.url });
      const processes: ServeProcess[] = [];
      replicas.push({
        address,
        base: `http://${address}`,
        process: undefined,
        processes,
        requestLines: () => processes.flatMap((child) => child.logs.filter((line) => line.msg === 'request')),
      });
    }
    const start = async (index: number) => {
      const replica = replicas[index] as ClusterReplica;
      const child = await startPostboxServe(configFile, ['forms'], { env: envOf[index] });
      replica.process = child;
      replica.processes.push(child);
    };
    cleanups.push(async () => {
      for (const replica of replicas) await replica.process?.stop('SIGKILL');
    });
    // One after the other: the first migrates the database, the others find it migrated.
    for (let index = 0; index < replicas.length; index += 1) await start(index);

    const nginxDir = path.join(temp.dir, 'nginx');
    const balancer: RunningBalancer = await startNginxBalancer({ dir: nginxDir, upstreams: replicas.map((replica) => replica.address) });
    cleanups.push(() => balancer.stop());

    return {
      base: balancer.base,
      replicas,
      postgres,
      redis,
      smtp,
      configFile,
      envOf: (index) => envOf[index] as NodeJS.ProcessEnv,
      query: async <Row extends pg.QueryResultRow>(text: string, values?: unknown[]) => (await pool.query<Row>(text, values)).rows,
      async kill(index) {
        const replica = replicas[index] as ClusterReplica;
        await replica.process?.stop('SIGKILL');
        replica.process = undefined;
      },
      restart: start,
      close: cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
