// The runtime's limit for the blog URLs: a bare node:http server answering, from memory, the exact bodies and
// content types postbox answered. Usage: static-server.ts <manifest.json>.
import { readFileSync } from 'node:fs';
import http from 'node:http';

interface ManifestEntry {
  contentType: string;
  bodyBase64: string;
}

const manifest = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as Record<string, ManifestEntry>;
const routes = new Map(
  Object.entries(manifest).map(([url, entry]) => [url, { contentType: entry.contentType, body: Buffer.from(entry.bodyBase64, 'base64') }]),
);

const server = http.createServer((request, response) => {
  const route = routes.get(request.url ?? '');
  if (!route) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': route.contentType, 'content-length': route.body.length });
  response.end(route.body);
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`LISTENING http://127.0.0.1:${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
