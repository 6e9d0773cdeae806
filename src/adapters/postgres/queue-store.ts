// The outgoing-message queue in PostgreSQL (docs/delivery.md "Several replicas"): one row per message, the
// QueueStore of src/queue/store.ts that replicas share.
// A replica claims due rows with FOR UPDATE SKIP LOCKED in a short transaction and leases them (leased_by,
// lease_until) while it sends them; a sent row is deleted, a temporary failure gives the lease back with the
// next try's time, a given-up row keeps failed_at. A replica extends the leases of the sends it still runs; one
// killed mid-send leaves them to expire: then another takes the rows and sends them again (the queue's
// at-least-once window is the lease).
// Messages of a lane (a campaign's) are claimed under one advisory lock, one per lane, and only while no row of
// the lane is leased: at most one of them is in flight across every replica. A claim takes lane-less new rows,
// then the lanes' new rows, then retries (at most the request's retryLimit, in the order of their time).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { OutgoingMessage, QueuedMessage } from '../../queue/outgoing.js';
import type { ClaimedMessage, FailedMessage, PendingMessage, QueueStore } from '../../queue/store.js';
import type { PostgresState } from './state.js';

/** How long a claimed message is this replica's unless it extends the lease (it does while the send runs). */
export const DEFAULT_LEASE_MS = 60_000;
/** The advisory lock under which lanes are claimed (any fixed number; this one spells "lane"). */
const LANE_LOCK = 0x6c616e65;

export interface PostgresQueueOptions {
  /** Who holds the leases this store takes; unique per process unless given. */
  owner?: string;
  leaseMs?: number;
  /** The time of `requestRetry` (the other calls are handed it). */
  clock?: () => number;
}

interface Row {
  id: string;
  created_at: Date;
  message: OutgoingMessage;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  failed_at: Date | null;
  seq: number;
}

const CLAIMED = 'q.id, q.created_at, q.message, q.attempts, q.next_attempt_at, q.seq::float8 AS seq';

/** Lane-less due rows nobody holds, new ones ($5 false) or retries ($5 true) in the order of their time. */
const CLAIM_FREE = `
WITH due AS (
  SELECT id FROM queue_messages
  WHERE failed_at IS NULL AND lane IS NULL AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
    AND (attempts > 0) = $5
  ORDER BY next_attempt_at, seq
  LIMIT $2
  FOR UPDATE SKIP LOCKED
)
UPDATE queue_messages q SET lease_until = $3, leased_by = $4 FROM due WHERE q.id = due.id
RETURNING ${CLAIMED}`;

/** Under LANE_LOCK: the first due row of each lane that has no live lease, new ones first. */
const LANE_CANDIDATES = `
SELECT id, attempts FROM (
  SELECT DISTINCT ON (c.lane) c.id, c.attempts, c.next_attempt_at, c.seq FROM queue_messages c
  WHERE c.failed_at IS NULL AND c.lane IS NOT NULL AND c.next_attempt_at <= $1 AND (c.lease_until IS NULL OR c.lease_until <= $1)
    AND NOT EXISTS (SELECT 1 FROM queue_messages o WHERE o.lane = c.lane AND o.failed_at IS NULL AND o.lease_until > $1)
  ORDER BY c.lane, c.seq
) first_of_lane
ORDER BY attempts > 0, next_attempt_at, seq
LIMIT $2`;

const LEASE_IDS = `UPDATE queue_messages q SET lease_until = $2, leased_by = $3 WHERE q.id = ANY($1::text[]) RETURNING ${CLAIMED}`;

/** The queue table of `state` as a QueueStore; its leases are held in this process's name unless `owner` is given. */
export function createPostgresQueueStore(state: PostgresState, options: PostgresQueueOptions = {}): QueueStore {
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const clock = options.clock ?? Date.now;
  const toClaimed = (row: Row): ClaimedMessage => ({ id: row.id, createdAt: row.created_at.getTime(), message: row.message, attempts: row.attempts, retry: row.attempts > 0 });
  /** RETURNING keeps no order: new rows go in the order queued, retries in the order of their time. */
  const queueOrder = (first: Row, second: Row) => first.seq - second.seq;
  const timeOrder = (first: Row, second: Row) => first.next_attempt_at.getTime() - second.next_attempt_at.getTime() || first.seq - second.seq;

  return {
    async add(messages, now, laneOf) {
      if (messages.length === 0) return [];
      const queued: QueuedMessage[] = messages.map((message) => ({ id: newMessageId(now), createdAt: now, message }));
      const rows = queued.map((entry) => ({ id: entry.id, message: entry.message, lane: laneOf?.(entry) ?? null }));
      // One statement: every message of a submission is kept, or none; seq follows the order given.
      await state.query(
        `INSERT INTO queue_messages (id, created_at, message, lane, next_attempt_at)
         SELECT r.value->>'id', $1, r.value->'message', r.value->>'lane', $1 FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS r(value, n) ORDER BY r.n`,
        [new Date(now), JSON.stringify(rows)],
      );
      return queued;
    },
    async claim({ limit, retryLimit }, now) {
      if (limit <= 0) return [];
      const values = (room: number, retries: boolean) => [new Date(now), room, new Date(now + leaseMs), owner, retries];
      return state.transaction(async (query) => {
        const fresh = (await query<Row>(CLAIM_FREE, values(limit, false))).rows.sort(queueOrder);
        if (fresh.length >= limit) return fresh.map(toClaimed);
        await query('SELECT pg_advisory_xact_lock($1)', [LANE_LOCK]);
        const candidates = (await query<{ id: string; attempts: number }>(LANE_CANDIDATES, [new Date(now), limit - fresh.length])).rows;
        const lanedFresh = candidates.filter((row) => row.attempts === 0);
        let room = limit - fresh.length - lanedFresh.length;
        let retryRoom = Math.min(retryLimit, room);
        const freeRetries = retryRoom > 0 ? (await query<Row>(CLAIM_FREE, values(retryRoom, true))).rows : [];
        room -= freeRetries.length;
        retryRoom -= freeRetries.length;
        const lanedRetries = candidates.filter((row) => row.attempts > 0).slice(0, Math.max(0, Math.min(room, retryRoom)));
        const laneIds = [...lanedFresh, ...lanedRetries].map((row) => row.id);
        const laned = laneIds.length === 0 ? [] : (await query<Row>(LEASE_IDS, [laneIds, new Date(now + leaseMs), owner])).rows;
        const lanedById = new Map(laned.map((row) => [row.id, row]));
        const lanedRows = (picked: ReadonlyArray<{ id: string }>) => picked.flatMap((row) => lanedById.get(row.id) ?? []);
        return [...fresh, ...lanedRows(lanedFresh), ...freeRetries.sort(timeOrder), ...lanedRows(lanedRetries)].map(toClaimed);
      });
    },
    leaseMs,
    async extend(ids, now) {
      if (ids.length === 0) return;
      await state.query('UPDATE queue_messages SET lease_until = $2 WHERE id = ANY($1::text[]) AND leased_by = $3', [ids, new Date(now + leaseMs), owner]);
    },
    async complete(id) {
      await state.query('DELETE FROM queue_messages WHERE id = $1', [id]);
    },
    async release(id, attempt) {
      await state.query(
        'UPDATE queue_messages SET attempts = $2, next_attempt_at = $3, last_error = $4, lease_until = NULL, leased_by = NULL WHERE id = $1 AND leased_by = $5',
        [id, attempt.attempts, new Date(attempt.nextAttemptAt), attempt.lastError, owner],
      );
    },
    async fail(id, attempt, now) {
      await state.query(
        'UPDATE queue_messages SET attempts = $2, last_error = $3, failed_at = $4, lease_until = NULL, leased_by = NULL WHERE id = $1 AND leased_by = $5',
        [id, attempt.attempts, attempt.lastError, new Date(now), owner],
      );
    },
    async pending(lane) {
      const { rows } =
        lane === undefined
          ? await state.query<Row>('SELECT id, created_at, message FROM queue_messages WHERE failed_at IS NULL ORDER BY seq')
          : await state.query<Row>('SELECT id, created_at, message FROM queue_messages WHERE failed_at IS NULL AND lane = $1 ORDER BY seq', [lane]);
      return rows.map((row) => ({ id: row.id, createdAt: row.created_at.getTime(), message: row.message }));
    },
    async counts() {
      const { rows } = await state.query<{ pending: number; failed: number }>(
        'SELECT count(*) FILTER (WHERE failed_at IS NULL)::integer AS pending, count(*) FILTER (WHERE failed_at IS NOT NULL)::integer AS failed FROM queue_messages',
      );
      return rows[0]!;
    },
    async listPending() {
      const { rows } = await state.query<Row>('SELECT id, created_at, message, attempts, next_attempt_at, last_error FROM queue_messages WHERE failed_at IS NULL ORDER BY seq');
      return rows.map(toPending);
    },
    async listFailed() {
      const { rows } = await state.query<Row>('SELECT id, created_at, message, attempts, last_error, failed_at FROM queue_messages WHERE failed_at IS NOT NULL ORDER BY failed_at, seq');
      return rows.map(toFailed);
    },
    async countFailed() {
      const { rows } = await state.query<{ failed: number }>('SELECT count(*)::integer AS failed FROM queue_messages WHERE failed_at IS NOT NULL');
      return rows[0]!.failed;
    },
    async retryFailed(id, now) {
      // Back with the same id and a new lifetime (queue_max_hours counts from now), due at once.
      const result = await state.query(
        'UPDATE queue_messages SET failed_at = NULL, attempts = 0, last_error = NULL, created_at = $2, next_attempt_at = $2, lease_until = NULL, leased_by = NULL WHERE id = $1 AND failed_at IS NOT NULL',
        [id, new Date(now)],
      );
      return (result.rowCount ?? 0) > 0;
    },
    async requestRetry() {
      // Rows a replica is claiming right now are skipped (they are being sent): this statement never waits on a claim.
      await state.query(
        'UPDATE queue_messages SET next_attempt_at = $1 WHERE id IN (SELECT id FROM queue_messages WHERE failed_at IS NULL AND next_attempt_at > $1 FOR UPDATE SKIP LOCKED)',
        [new Date(clock())],
      );
    },
    async drop(id) {
      const { rows } = await state.query<{ failed: boolean }>('DELETE FROM queue_messages WHERE id = $1 RETURNING failed_at IS NOT NULL AS failed', [id]);
      if (rows.length === 0) return undefined;
      return rows[0]!.failed ? 'failed' : 'pending';
    },
    // Durability is PostgreSQL's commit: the queue makes no fsync calls of its own.
    fsyncCount: () => 0,
    // The state (its connection pool) belongs to the composition root, which closes it.
    close: async () => undefined,
  };
}

/** A message id: time-ordered, random, unique across replicas. */
function newMessageId(now: number): string {
  return `msg_${now.toString(36)}_${randomBytes(8).toString('hex')}`;
}

function toPending(row: Row): PendingMessage {
  const base = { id: row.id, createdAt: row.created_at.getTime(), message: row.message };
  if (row.attempts === 0) return base;
  return { ...base, attempt: { attempts: row.attempts, nextAttemptAt: row.next_attempt_at.getTime(), lastError: row.last_error ?? '' } };
}

function toFailed(row: Row): FailedMessage {
  return { id: row.id, createdAt: row.created_at.getTime(), message: row.message, failedAt: row.failed_at!.getTime(), attempts: row.attempts, lastError: row.last_error ?? '' };
}

