// A second local origin for the pages that embed the snippets: node:http on 127.0.0.1, an ephemeral port.
import http from 'node:http';
import { listenOnLoopback } from '../../support/loopback-server.js';

/** A served request, so tests can tell what the browser fetched from the site. */
export interface SiteRequest {
  method: string;
  path: string;
}

export interface StaticSite {
  /** The browser's origin for these pages, e.g. "http://127.0.0.1:41234". */
  origin: string;
  requests: SiteRequest[];
  /** Serves `html` at `path` from now on. */
  put(path: string, html: string): void;
  close(): Promise<void>;
}

/** Starts an empty site; pages are added with `put` once the service addresses are known. */
export async function startStaticSite(): Promise<StaticSite> {
  const pages = new Map<string, string>();
  const requests: SiteRequest[] = [];
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    requests.push({ method: request.method ?? '', path });
    const html = pages.get(path);
    if ((request.method === 'GET' || request.method === 'HEAD') && html !== undefined) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(html);
    } else {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('not found');
    }
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    put: (path, html) => void pages.set(path, html),
    close,
  };
}

/** Wraps a snippet in a minimal page, as a site owner would paste it into a page of theirs. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
</head>
<body>
<h1>${title}</h1>
${body}
</body>
</html>
`;
}
