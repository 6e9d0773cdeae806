// The reference for the validation-rejected path: a bare node:http server that reads the body, parses the same
// JSON and answers 400 with the body postbox answered. Usage: rejecting-server.ts <answer-body-file>.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { listenAndAnnounce } from './listen.js';

const answer = readFileSync(process.argv[2] as string);

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      // an unparsable body is answered 400 as well
    }
    response.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'content-length': answer.length });
    response.end(answer);
  });
});

listenAndAnnounce(server);
