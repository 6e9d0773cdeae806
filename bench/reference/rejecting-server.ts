// The reference for the validation-rejected path: a bare node:http server that reads the body, parses the same
// JSON and answers 400 with the headers and body postbox answered (Date, Connection and Keep-Alive come from
// Node, as for postbox). Usage: rejecting-server.ts <answer.json> ({"headers": {...}, "body": "..."}).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { listenAndAnnounce } from './listen.js';

interface RecordedAnswer {
  /** Header names and values as postbox sent them, content-length included. */
  headers: Record<string, string>;
  body: string;
}

const recorded = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as RecordedAnswer;
const body = Buffer.from(recorded.body, 'utf8');

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      // an unparsable body is answered 400 as well
    }
    response.writeHead(400, recorded.headers);
    response.end(body);
  });
});

listenAndAnnounce(server);
