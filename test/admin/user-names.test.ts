// The rules of a new user's name (src/admin/accounts/user-names.ts): letters of one script (or of scripts written
// together), and look-alikes folded when names are compared.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isMixedScript, lookAlikeOf, nameKeyOf, nameProblem } from '../../src/admin/accounts/user-names.js';

describe('user names', () => {
  it('refuses letters of scripts that are not written together', () => {
    const cases: Array<[string, boolean]> = [
      ['ada', false],
      ['Ada Lovelace-2', false],
      ['José', false],
      ['Ἀλέξανδρος', false],
      ['Вера', false],
      ['山田たろう', false],
      ['yamada 山田', false],
      ['김민준 kim', false],
      ['\u0430da', true], // Cyrillic а
      ['ad\u03b1', true], // Greek α
      ['Вера Smith', true],
      ['Ἀλέξανδρος Вера', true],
    ];
    for (const [name, mixed] of cases) assert.equal(isMixedScript(name), mixed, name);
    assert.match(nameProblem('p\u0430ypal') ?? '', /mixes letters of Latin and Cyrillic script/);
    assert.equal(nameProblem('Вера'), undefined);
  });

  it('folds case, compatibility letters and Cyrillic or Greek look-alikes of Latin letters', () => {
    assert.equal(nameKeyOf('Ada'), 'ada');
    assert.equal(nameKeyOf('\uff21\uff44\uff41'), 'ada', 'full-width');
    assert.equal(nameKeyOf('\u0410\u0421\u0415'), nameKeyOf('ace'), 'Cyrillic capitals');
    assert.equal(nameKeyOf('\u0430\u0441\u0435'), nameKeyOf('ace'), 'Cyrillic small letters');
    assert.equal(nameKeyOf('\u0397\u0391\u039d\u0391'), nameKeyOf('hana'), 'Greek capitals');
    assert.equal(nameKeyOf('Вера'), nameKeyOf('BEPA'), 'what it looks like in capitals');
    assert.notEqual(nameKeyOf('Вика'), nameKeyOf('bnka'), 'not every letter is folded');
    assert.equal(lookAlikeOf('\u03a4\u039f\u039c', ['ed', 'tom']), 'tom');
    assert.equal(lookAlikeOf('tim', ['ed', 'tom']), undefined);
  });
});
