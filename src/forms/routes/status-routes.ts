// GET /health and GET /metrics (forms-service.md; contract section 3 on the metrics token).
import type { FastifyInstance } from 'fastify';
import { isBearerTokenValid } from '../../http/bearer-token.js';
import type { FormsContext } from './context.js';

/** Registers /health (always open) and /metrics (open, or behind `server.metrics_token`). */
export function registerStatusRoutes(app: FastifyInstance, context: FormsContext): void {
  const formCount = context.config.forms.length;
  const token = context.config.server.metrics_token;
  app.get('/health', async () => ({ status: 'ok', forms: formCount }));
  app.get('/metrics', async (request, reply) => {
    if (token !== undefined && !isBearerTokenValid(request.headers.authorization, token)) {
      return reply.code(401).header('WWW-Authenticate', 'Bearer').send({ error: 'unauthorized' });
    }
    return reply.header('Cache-Control', 'no-store').send(context.metrics.snapshot());
  });
}
