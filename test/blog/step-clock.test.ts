// The index build's steps are cut by time (catalog/step-clock.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSearchIndex, findPositions, indexSteps, createWordStore } from '../../src/blog/catalog/search-index.js';
import { stepClock } from '../../src/blog/catalog/step-clock.js';

describe('the step clock', () => {
  it('says a step is due once its time has run, then starts the next step', () => {
    let time = 100;
    const due = stepClock(10, () => time);
    assert.equal(due(), false);
    time = 109.9;
    assert.equal(due(), false);
    time = 110;
    assert.equal(due(), true);
    assert.equal(due(), false, 'the next step starts when one is due');
    time = 125;
    assert.equal(due(), true);
  });

  it('counts a step from its first question after the pause, not from the pause', () => {
    let time = 0;
    const due = stepClock(10, () => time);
    time = 10;
    assert.equal(due(), true);
    // Another step of as long runs during the pause.
    time = 22;
    assert.equal(due(), false, 'a step after a long pause still gets its time');
    time = 31;
    assert.equal(due(), false);
    time = 32;
    assert.equal(due(), true);
  });

  it('cuts the index build where it says, and the index is the one built at once', () => {
    const posts = Array.from({ length: 300 }, (_, at) => ({ searchText: `post ${at} word${at % 17} common` }));
    let calls = 0;
    const steps = indexSteps(posts, undefined, createWordStore(), () => ++calls % 7 === 0);
    let pauses = 0;
    let step = steps.next();
    while (!step.done) {
      pauses += 1;
      step = steps.next();
    }
    // Asked after each post read (and every 32 posts counted and placed): a pause every seventh time asked.
    assert.equal(pauses, Math.floor(calls / 7) + 1, 'and one before the words\' grams');
    assert.ok(calls >= posts.length);
    const whole = buildSearchIndex(posts);
    for (const term of ['word3', 'common', 'ost', 'zzz']) assert.deepEqual(findPositions(step.value, [term]), findPositions(whole, [term]));
  });
});
