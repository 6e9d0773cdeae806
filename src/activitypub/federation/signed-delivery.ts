// One queued activity sent (docs/activitypub.md "Delivery"): signed by the blog's actor (HTTP Signatures as the
// library makes them) and POSTed to the inbox. A 2xx is accepted; any other answer throws with `http_<status>`,
// which the queue takes as temporary (5xx, 429) or permanent (other 4xx). The fetch given refuses an inbox on a
// private address unless allowed (checking the address it connects to), which is given up at once.
import { fedify } from './fedify.js';

export interface DeliverySettings {
  keyId: string;
}

/** What a refused or failed delivery throws: a code the queue's log and classification read. */
export class DeliveryError extends Error {
  constructor(
    readonly reason: string,
    readonly code?: string,
  ) {
    super(`the activity was not delivered: ${reason}`);
    this.name = 'DeliveryError';
  }
}

/** Longest wait for an inbox's answer. */
const DELIVERY_TIMEOUT_MS = 15_000;

export function createSignedDelivery(
  settings: DeliverySettings,
  deps: { keyPair(): Promise<CryptoKeyPair>; fetch: typeof fetch },
): (inbox: string, activity: Record<string, unknown>) => Promise<void> {
  return async (inbox, activity) => {
    const { signRequest } = fedify();
    const unsigned = new Request(inbox, {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json', accept: 'application/activity+json' },
      body: JSON.stringify(activity),
    });
    const signed = await signRequest(unsigned, (await deps.keyPair()).privateKey, new URL(settings.keyId));
    const response = await deps.fetch(signed, { redirect: 'manual', signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) }).catch((error: unknown) => {
      // A private inbox can never become public by retrying: permanent.
      if ((error as { code?: unknown }).code === 'EPRIVATEADDRESS') throw new DeliveryError('private_address', 'EPRIVATEADDRESS');
      throw error;
    });
    await response.body?.cancel();
    if (response.status < 200 || response.status > 299) throw new DeliveryError(`http_${response.status}`);
  };
}
