// The runtime's limit for the blog URLs: a bare node:http server answering, from memory, the same bytes postbox
// answered: body and headers (Date, Connection and Keep-Alive come from Node, as for postbox).
// Usage: static-server.ts <manifest.json>.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { listenAndAnnounce } from './listen.js';

interface ManifestEntry {
  /** Header names and values as postbox sent them, content-length included. */
  headers: Record<string, string>;
  bodyBase64: string;
}

const manifest = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as Record<string, ManifestEntry>;
const routes = new Map(
  Object.entries(manifest).map(([url, entry]) => [url, { headers: entry.headers, body: Buffer.from(entry.bodyBase64, 'base64') }]),
);

const server = http.createServer((request, response) => {
  const route = routes.get(request.url ?? '');
  if (!route) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, route.headers);
  response.end(route.body);
});

listenAndAnnounce(server);
