// The types of the typed client (src/client/, docs/site-generators.md "The typed client"), made by openapi-typescript
// from the OpenAPI documents both listeners serve: the built `postbox serve` is started on loopback with
// src/client/openapi/reference-config.toml, its two /openapi.json are read, and their types are written beside that
// configuration, where the type check sees them. The build runs it after dist/cli.js; the tests run it against a
// server of their own and compare.
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const CLIENT_TYPES_DIR = path.join(ROOT, 'src/client/openapi');
const REFERENCE_CONFIG = path.join(CLIENT_TYPES_DIR, 'reference-config.toml');

/** The generated files by name: the forms listener's and the blog listener's. */
export const CLIENT_TYPE_FILES = { forms: 'forms-api.ts', blog: 'blog-api.ts' };

const HEADER = (listener) =>
  `// Made by \`npm run build\` (scripts/client-types.mjs) with openapi-typescript from the ${listener} listener's /openapi.json,\n// served with reference-config.toml beside this file. Not edited by hand.\n`;

/** Starts `node dist/cli.js serve` with the reference configuration in a temporary folder; stop() ends it. */
export async function serveReference(cli = path.join(ROOT, 'dist/cli.js')) {
  const folder = await mkdtemp(path.join(tmpdir(), 'postbox-client-types-'));
  await mkdir(path.join(folder, 'posts'));
  const config = path.join(folder, 'config.toml');
  await writeFile(config, await readFile(REFERENCE_CONFIG, 'utf8'));
  const child = spawn(process.execPath, [cli, 'serve', '--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(folder, { recursive: true, force: true });
  };
  try {
    const addresses = await new Promise((resolve, reject) => {
      const found = {};
      const timer = setTimeout(() => reject(new Error(`postbox serve did not listen in time:\n${output.join('\n')}`)), 30_000);
      child.once('exit', (code) => reject(new Error(`postbox serve exited (${code}) before listening:\n${output.join('\n')}`)));
      createInterface({ input: child.stderr }).on('line', (line) => output.push(line));
      createInterface({ input: child.stdout }).on('line', (line) => {
        output.push(line);
        let event;
        try {
          event = JSON.parse(line);
        } catch {
          return;
        }
        if (event.event === 'listening') found[event.service] = event.address;
        if (found.forms && found.blog) {
          clearTimeout(timer);
          resolve(found);
        }
      });
    });
    return { addresses, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The two documents, read as a client reads them. */
export async function fetchDocuments(addresses) {
  const read = async (base) => {
    const response = await fetch(`${base}/openapi.json`);
    if (!response.ok) throw new Error(`GET ${base}/openapi.json answered ${response.status}`);
    return response.json();
  };
  return { forms: await read(addresses.forms), blog: await read(addresses.blog) };
}

/**
 * The scripts served at a versioned address (`/comments.<hash>.js`, `/altcha.<hash>.js`): their path changes with each
 * change to the script, the client never asks for them, and the types would change with them.
 */
const VERSIONED_SCRIPT = /^\/[\w-]+\.[\w-]{16}\.js$/;

/** The text of each generated file, by listener. */
export async function clientTypesOf(documents) {
  const files = {};
  for (const listener of ['forms', 'blog']) {
    const document = documents[listener];
    const paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => !VERSIONED_SCRIPT.test(path)));
    const nodes = await openapiTS({ ...document, paths }, { alphabetize: true });
    files[listener] = `${HEADER(listener)}${astToString(nodes)}`;
  }
  return files;
}

/** Serves the reference configuration, generates the types from what it serves and writes them to src/client/openapi/. */
export async function writeClientTypes(cli) {
  const server = await serveReference(cli);
  try {
    const files = await clientTypesOf(await fetchDocuments(server.addresses));
    for (const listener of ['forms', 'blog']) await writeFile(path.join(CLIENT_TYPES_DIR, CLIENT_TYPE_FILES[listener]), files[listener]);
  } finally {
    await server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await writeClientTypes();
