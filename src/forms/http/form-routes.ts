// The forms service's route table (docs/forms-api.md "Endpoints"): per form POST and the OPTIONS preflight, with
// proof of work GET <path>/challenge, and GET /health, /metrics, /altcha.js and /openapi.json (docs/openapi.md),
// which describes the newsletter pages (newsletter/http/) and bounce webhooks (bounces/http/) mounted beside it.
// Other methods on these paths get 405 with `Allow` and an empty body; unknown paths 404 {"error":"not_found"}.
import { challengePathOf, type FormConfig } from '../../config/config.js';
import type { Answer } from '../../http/answer.js';
import { BAD_PATH_MESSAGE, errorAnswer } from '../../http/error-catalogue.js';
import type { DoorAnswers } from '../../http/front-door.js';
import type { Handler, Route } from '../../http/route-table.js';
import type { Metrics } from '../metrics.js';
import { createCorsHeaders, isOriginAllowed } from '../rules/cors.js';
import type { SubmitInput, SubmitOutcome } from '../submit-flow.js';
import { createStatusRoutes, type StatusRoutesOptions } from './status-routes.js';
import { createSubmitRoute } from './submit-route.js';
import { createChallengeRoute, createWidgetRoutes } from './spam-routes.js';
import type { ProofOfWork } from '../spam/proof-of-work.js';
import type { Clock } from '../../ports.js';
import type { WebhookProvider } from '../../bounces/intake/webhook-intake.js';
import { createDocumentRoute } from '../../http/openapi/document-route.js';
import { createFormsDocument } from './openapi.js';

export interface FormRoutesOptions extends StatusRoutesOptions {
  forms: readonly FormConfig[];
  metrics: Metrics;
  /** The submit flow of each form. */
  submitFlowOf(form: FormConfig): (input: SubmitInput) => Promise<SubmitOutcome>;
  /** The proof of work of `form`, when its `[forms.spam] proof_of_work` is on. */
  proofOfWorkOf(form: FormConfig): ProofOfWork | undefined;
  clock: Clock;
  /** The bounce webhooks' providers, routed beside these (bounces/http/bounce-routes.ts): GET /openapi.json describes them too. */
  bounceProviders?: readonly WebhookProvider[];
}

const FORM_METHODS = 'POST, OPTIONS';

/** Where the ALTCHA widget is served, and at `/altcha.<hash>.js` (docs/spam.md "Proof of work"). */
export const WIDGET_PATH = '/altcha.js';

/** Every route of the forms service. */
export function createFormRoutes(options: FormRoutesOptions): Route[] {
  const routes: Route[] = createStatusRoutes(options);
  const widget = createWidgetRoutes(WIDGET_PATH);
  routes.push(...widget.routes);
  for (const form of options.forms) {
    routes.push({ path: form.path, methods: { POST: createSubmitRoute(form, options.submitFlowOf(form)), OPTIONS: createPreflight(form, options.metrics) } });
    const proofOfWork = options.proofOfWorkOf(form);
    if (proofOfWork) routes.push({ path: challengePathOf(form.path), methods: { GET: createChallengeRoute(form, proofOfWork, options.clock, options.metrics) } });
  }
  // GET /openapi.json (docs/openapi.md): the document of this table, built once here.
  routes.push(createDocumentRoute(createFormsDocument(options, WIDGET_PATH, widget.versionedPath)));
  return routes;
}

/** The forms service's own answers: 404 with the catalogue's body, 405 with `Allow` and no body. */
export const formsDoorAnswers: DoorAnswers = {
  notFound: () => errorAnswer('not_found'),
  badPath: () => errorAnswer('bad_request', {}, BAD_PATH_MESSAGE),
  methodNotAllowed: (allow) => ({ status: 405, headers: { allow } }),
  internalError: () => errorAnswer('internal_error'),
};

/** OPTIONS <path>: 204 with the CORS headers for an allowed Origin, 403 for another (docs/forms-api.md "OPTIONS <path>"). */
function createPreflight(form: FormConfig, metrics: Metrics): Handler {
  return (request): Answer => {
    const origin = request.raw.headers.origin;
    if (!isOriginAllowed(origin, form.allowed_origins)) {
      metrics.count(form.path, 'origin_blocked');
      return { ...errorAnswer('origin_not_allowed'), refusedOrigin: origin };
    }
    // Without an Origin (not a browser) there is nothing to allow; the answer only lists the methods.
    const headers = origin === undefined ? {} : createCorsHeaders(origin);
    headers.allow = FORM_METHODS;
    return { status: 204, headers };
  };
}
