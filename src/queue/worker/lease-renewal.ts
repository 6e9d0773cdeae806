// Keeps the leases of the sends under way: only a replica that stopped (killed, cut off) lets them run out, and
// then another sends those messages again (docs/delivery.md "Several replicas").
import type { Timers } from '../../ports.js';
import type { QueueStore } from '../store.js';
import type { SendingSlots } from './sending-slots.js';

export interface LeaseRenewal {
  /** Extends the leases of every send under way, unless a renewal is still running. */
  renew(): void;
  /** Waits for a renewal under way. */
  settled(): Promise<void>;
}

export function createLeaseRenewal(store: QueueStore, timer: Timers, slots: SendingSlots): LeaseRenewal {
  let renewing: Promise<void> | undefined;
  return {
    renew() {
      const ids = slots.leasedIds();
      if (ids.length === 0) return;
      renewing ??= store
        .extend(ids, timer.now())
        .catch(() => undefined)
        .finally(() => (renewing = undefined));
    },
    settled: async () => {
      await renewing;
    },
  };
}
