// POST /bounces/<provider> (docs/forms-api.md "Bounce webhooks"): the providers' bounce webhooks on the forms
// listener, one route per configured provider. The body is read up to max_body_bytes by the one bounded reader
// (src/http/body-reader.ts), as a form's is, and handed whole to the bounce intake
// (src/bounces/intake/webhook-intake.ts), whose outcome becomes the answer: 200 once the sink took every report, 401
// for wrong credentials or signatures, 400 for a body not in the provider's format, 404 for a provider that is not
// configured.
import type { BounceWebhooks, WebhookOutcome, WebhookProvider } from '../intake/webhook-intake.js';
import type { Answer } from '../../http/answer.js';
import { readWholeBody } from '../../http/body-reader.js';
import { errorAnswer, JSON_CONTENT_TYPE } from '../../http/error-catalogue.js';
import type { Handler, Route } from '../../http/route-table.js';
import { UnavailableError } from '../../kit/unavailable-error.js';

export const BOUNCES_PATH_PREFIX = '/bounces/';

/** The routes of the configured providers; the others are not routed, so they answer 404 as any unknown path. */
export function createBounceRoutes(webhooks: BounceWebhooks, maxBodyBytes: number): Route[] {
  return webhooks.providers.map((provider) => ({ path: `${BOUNCES_PATH_PREFIX}${provider}`, methods: { POST: createWebhookHandler(webhooks, provider, maxBodyBytes) } }));
}

function createWebhookHandler(webhooks: BounceWebhooks, provider: WebhookProvider, maxBodyBytes: number): Handler {
  return async ({ raw }) => {
    const read = await readWholeBody(raw, raw.headers['content-length'], maxBodyBytes);
    if (!read.ok) return errorAnswer(read.error, { connection: 'close' });
    let outcome: WebhookOutcome;
    try {
      outcome = await webhooks.receive(provider, { headers: raw.headers, body: read.body });
    } catch (error) {
      // The sink's store, or Amazon for a certificate, out of reach: the provider tries again later.
      if (error instanceof UnavailableError) return errorAnswer('unavailable', { 'cache-control': 'no-store' });
      throw error;
    }
    switch (outcome.kind) {
      case 'accepted':
        return ok();
      case 'not_configured':
        return errorAnswer('not_found');
      case 'invalid':
        return errorAnswer('invalid_body');
      case 'unauthorized':
        // RFC 9110 section 11.6.1: a 401 names how to authenticate; only Postmark's is HTTP authentication.
        return errorAnswer('unauthorized', provider === 'postmark' ? { 'www-authenticate': 'Basic realm="bounces"' } : {});
    }
  };
}

function ok(): Answer {
  return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body: '{"ok":true}' };
}
