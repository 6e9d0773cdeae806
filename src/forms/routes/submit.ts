// POST <form_path> through Fastify: the decision (submit-decision.ts) answers, this only writes the answer.
// The fast path in front of Fastify (fast-path.ts) writes the same answers for the same requests.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SubmitAnswer, SubmitRequest } from './submit-decision.js';

/** The POST handler of a form, writing what its decision answers. */
export function createSubmitHandler(decide: (request: SubmitRequest) => Promise<SubmitAnswer>) {
  return async function submit(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const { headers } = request;
    const answer = await decide({
      path: request.url.split('?', 1)[0] as string,
      origin: headers.origin,
      contentType: request.bodyContentType,
      contentLength: headers['content-length'],
      transferEncoding: headers['transfer-encoding'],
      body: request.raw,
      clientIp: request.clientIp,
    });
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  };
}
