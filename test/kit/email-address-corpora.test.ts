import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isEmailAddress } from '../../src/kit/email-address.js';

// Public corpora vendored in test/fixtures/email/ (sources, licences and the mapping of each corpus verdict
// to Postbox's answer, docs/submission-rules.md "Email addresses", are in its README.md).
interface CorpusCase {
  address: string;
  valid: boolean;
  [detail: string]: unknown;
}

interface CorpusFile {
  source: string;
  sets: Record<string, { cases: CorpusCase[]; left_out: unknown[] }>;
}

const files = ['isemail-dominicsayers.json', 'isemail-skeggse.json', 'python-email-validator.json'];

for (const file of files) {
  const corpus = JSON.parse(
    readFileSync(new URL(`../fixtures/email/${file}`, import.meta.url), 'utf8'),
  ) as CorpusFile;
  describe(`isEmailAddress against ${corpus.source}`, () => {
    for (const [setName, { cases }] of Object.entries(corpus.sets)) {
      it(`${setName}: all ${cases.length} cases`, () => {
        assert.ok(cases.length > 50, 'the fixture holds the corpus');
        assert.ok(cases.some((entry) => entry.valid) && cases.some((entry) => !entry.valid), 'both answers present');
        const wrong = cases.filter((entry) => isEmailAddress(entry.address) !== entry.valid);
        assert.deepEqual(wrong, [], `${wrong.length} cases judged wrongly`);
      });
    }
  });
}
