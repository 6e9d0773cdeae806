// Generated post texts and queries for the `q` index's property tests, and the words file of an index as bytes.
import fc from 'fast-check';
import type { SearchIndex } from '../../src/blog/catalog/search-index.js';
import { encodeSearchWords, type SearchWordsKey } from '../../src/blog/catalog/search-words-file.js';

// Text over few units, so that generated posts share words and terms hit them: ASCII, letters that fold (É, ß, ﬁ),
// a lone surrogate, an emoji, and white space of several kinds.
const unit = fc.constantFrom('a', 'b', 'ab', 'é', 'É', 'ß', 'ﬁ', '\ud800', '😀', ' ', '\n', '\u00a0', '\u3000');
export const postText = fc.array(unit, { maxLength: 30 }).map((units) => units.join(''));

/** One to three terms over the same units, and one no text holds (zz). */
export const searchQuery = fc
  .array(fc.constantFrom('a', 'b', 'é', 'ss', 'fi', '\ud800', '😀', 'ab', 'zz'), { minLength: 1, maxLength: 3 })
  .map((terms) => terms.join(' '));

/** The bytes search-words-file.ts writes for `index`. */
export async function encodedWords(index: SearchIndex, key: SearchWordsKey): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  for await (const piece of encodeSearchWords(index, key, async () => undefined)) pieces.push(piece);
  return Buffer.concat(pieces);
}
