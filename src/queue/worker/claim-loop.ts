// The worker's claim loop: one claim at a time for what there is room for, and one more when asked during it.
// It is asked when a message is queued, when a send ends and at every poll. Claimed messages go to the sending
// slots; a store that cannot be reached is reported once, and the polls go on until a claim succeeds.
import { UnavailableError } from '../../kit/unavailable-error.js';
import type { Timers } from '../../ports.js';
import type { ClaimedMessage, QueueStore } from '../store.js';
import type { QueueReport } from './report.js';
import type { SendingSlots } from './sending-slots.js';
import type { Settling } from './settling.js';

/** Idle before `start`; draining once stopping (new messages only); stopped: nothing is claimed any more. */
export type LoopPhase = 'idle' | 'running' | 'draining' | 'stopped';

export interface ClaimLoop {
  /** Claims now, or once more after the claim under way. */
  pump(): void;
  phase(): LoopPhase;
  to(phase: LoopPhase): void;
  /** The claim under way, if any. */
  claiming(): Promise<void> | undefined;
}

interface LoopParts {
  store: QueueStore;
  timer: Timers;
  report: QueueReport;
  slots: SendingSlots;
  settling: Settling;
}

export function createClaimLoop({ store, timer, report, slots, settling }: LoopParts): ClaimLoop {
  let phase: LoopPhase = 'idle';
  let claiming: Promise<void> | undefined;
  let claimAgain = false;
  let outage = false;

  function pump(): void {
    if (phase === 'idle' || phase === 'stopped') return;
    if (claiming) {
      claimAgain = true;
      return;
    }
    claiming = claimAndRun().finally(() => {
      claiming = undefined;
      if (claimAgain) {
        claimAgain = false;
        pump();
      }
    });
  }

  async function claimAndRun(): Promise<void> {
    await settling.flush();
    const room = slots.room(phase === 'draining');
    if (room.limit <= 0 || phase === 'stopped') return;
    let claimed: ClaimedMessage[];
    try {
      claimed = await store.claim(room, timer.now());
    } catch (error) {
      // An unreachable database is logged by the state itself (postgres_unavailable); anything else once until a
      // claim succeeds.
      if (!outage && !(error instanceof UnavailableError)) report.storageFailed('claim', error);
      outage = true;
      return;
    }
    outage = false;
    // A full claim may have left more due messages: the next claim comes when a send ends.
    for (const message of claimed) slots.run(message, () => settling.attempt(message).catch((error: unknown) => report.storageFailed('attempt', error)), pump);
  }

  return {
    pump,
    phase: () => phase,
    to(next) {
      phase = next;
    },
    claiming: () => claiming,
  };
}
