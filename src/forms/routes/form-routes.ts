// The routes of each configured form (forms-service.md "Endpoints"): POST, the OPTIONS preflight and, on
// newsletter forms, GET <path>/confirm. Other methods on these paths get 405 from the shared not-found
// handler, through allowedMethodsOf.
import type { FastifyInstance } from 'fastify';
import type { FormConfig } from '../../config/schema.js';
import { createCorsHeaders, isOriginAllowed } from '../rules/cors.js';
import type { FormsContext } from './context.js';
import { createSubmitHandler } from './submit.js';
import { createSubmitDecision, type SubmitAnswer, type SubmitRequest } from './submit-decision.js';

const FORM_METHODS = ['POST', 'OPTIONS'] as const;
const CONFIRM_METHODS = ['GET'] as const;

/** The methods each form path answers, for the `Allow` header of a 405. */
export function allowedMethodsOf(forms: readonly FormConfig[]): (path: string) => readonly string[] | undefined {
  const methods = new Map<string, readonly string[]>();
  for (const form of forms) {
    methods.set(form.path, FORM_METHODS);
    if (form.type === 'newsletter') methods.set(confirmPathOf(form), CONFIRM_METHODS);
  }
  return (path) => methods.get(path);
}

function confirmPathOf(form: FormConfig): string {
  return `${form.path.replace(/\/+$/, '')}/confirm`;
}

/**
 * Registers every form's routes on `app`; returns each form's POST decision by path, for the fast path in
 * front of Fastify (fast-path.ts).
 */
export function registerFormRoutes(
  app: FastifyInstance,
  context: FormsContext,
): Map<string, (request: SubmitRequest) => Promise<SubmitAnswer>> {
  const decisions = new Map<string, (request: SubmitRequest) => Promise<SubmitAnswer>>();
  for (const form of context.config.forms) {
    const decide = createSubmitDecision(form, context);
    decisions.set(form.path, decide);
    app.post(form.path, createSubmitHandler(decide));
    app.options(form.path, async (request, reply) => {
      const origin = request.headers.origin;
      if (!isOriginAllowed(origin, form.allowed_origins)) {
        context.metrics.count(form.path, 'origin_blocked');
        return reply.code(403).send({ error: 'origin_not_allowed' });
      }
      // Without an Origin (not a browser) there is nothing to allow; the answer only lists the methods.
      if (origin !== undefined) reply.headers(createCorsHeaders(origin));
      return reply.code(204).header('Allow', FORM_METHODS.join(', ')).send();
    });
    if (form.type === 'newsletter') {
      // No automatic HEAD: a link checker's HEAD must not redeem a single-use token.
      app.get(confirmPathOf(form), { exposeHeadRoute: false }, async (request, reply) => {
        const token = (request.query as Record<string, unknown>).token;
        const page = await context.newsletter.confirm(form, typeof token === 'string' ? token : undefined);
        return reply
          .code(page.status)
          .header('Content-Type', 'text/html; charset=utf-8')
          .header('Cache-Control', 'no-store')
          .header('Referrer-Policy', 'no-referrer')
          .send(page.html);
      });
    }
  }
  return decisions;
}
