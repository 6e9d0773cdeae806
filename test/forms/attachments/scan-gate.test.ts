// The scan gate (src/forms/attachments/scan-gate.ts) with a fake store and scanner: storage that cannot be read holds
// the submission as an unreachable scanner does, and a virus quarantine keeps its files' names marked removed.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { it } from 'node:test';
import type { AttachmentStore } from '../../../src/forms/attachments/attachment-store.js';
import { createScanGate, type HeldRecord } from '../../../src/forms/attachments/scan-gate.js';
import { captureLogs } from '../../support/log-capture.js';

const FILE = { id: 'A'.repeat(24), field: 'upload', filename: 'report.pdf', type: 'application/pdf', size: 4 };
const RECORD: HeldRecord = { form: '/contact', receivedAt: '2026-01-01T00:00:00.000Z', submission: { email: 'ada@example.org', attachments: [FILE] } as HeldRecord['submission'] };

function storeWith(read: AttachmentStore['read']): AttachmentStore {
  return { read, write: async () => {}, remove: async () => {}, prune: async () => 0 };
}

const held = { hold: async () => {}, list: async () => [], release: async () => {} };

it('holds a submission whose file storage cannot be read, delivering nothing', async () => {
  const accepted: HeldRecord[] = [];
  const gate = createScanGate({
    store: storeWith(async () => {
      throw new Error('connect ECONNREFUSED');
    }),
    scanner: { scan: async () => ({ clean: true }) },
    held,
    logger: captureLogs().logger,
  });
  const outcome = await gate.pass(RECORD, { accept: async (record) => accepted.push(record), quarantineVirus: async () => {} });
  assert.equal(outcome, 'held');
  assert.deepEqual(accepted, []);
});

it('quarantines an infected submission with its files marked removed, and removes them', async () => {
  const removed: string[] = [];
  const quarantined: HeldRecord[] = [];
  const store = { ...storeWith(async () => Readable.from([Buffer.from('X5O!')])), remove: async (id: string) => void removed.push(id) };
  const gate = createScanGate({ store, scanner: { scan: async () => ({ clean: false, signature: 'Eicar-Test-Signature' }) }, held, logger: captureLogs().logger });
  assert.equal(await gate.pass(RECORD, { accept: async () => {}, quarantineVirus: async (record) => void quarantined.push(record) }), 'infected');
  assert.deepEqual(removed, [FILE.id]);
  assert.deepEqual(quarantined[0]?.submission.attachments, [{ ...FILE, removed: true }]);
});
