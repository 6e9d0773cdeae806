// The worker's sending slots: how many messages are being sent now, which of them are retries (they never hold
// more than half of the slots, docs/delivery.md "Retries", so a backlog never starves new mail) and the ids whose
// leases the worker keeps while their sends run.
import type { ClaimedMessage, ClaimRequest } from '../store.js';

export interface SendingSlots {
  /** What a claim may ask for now; no retries while `draining`. */
  room(draining: boolean): ClaimRequest;
  /** Holds a slot while `send` runs; `freed` is called once the slot is free again. */
  run(message: ClaimedMessage, send: () => Promise<void>, freed: () => void): void;
  /** The sends under way. */
  inFlight(): Promise<void>[];
  /** The ids being sent now. */
  leasedIds(): string[];
}

export function createSendingSlots(concurrency: number): SendingSlots {
  const slots = Math.max(1, concurrency);
  const retryShare = Math.max(1, Math.floor(slots / 2));
  const tasks = new Set<Promise<void>>();
  const leased = new Set<string>();
  let retriesInFlight = 0;

  return {
    room: (draining) => ({ limit: slots - tasks.size, retryLimit: draining ? 0 : Math.max(0, retryShare - retriesInFlight) }),
    run(message, send, freed) {
      leased.add(message.id);
      if (message.retry) retriesInFlight += 1;
      const task = send().finally(() => {
        leased.delete(message.id);
        if (message.retry) retriesInFlight -= 1;
        tasks.delete(task);
        freed();
      });
      tasks.add(task);
    },
    inFlight: () => [...tasks],
    leasedIds: () => [...leased],
  };
}
