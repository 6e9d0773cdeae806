// Words looked through one by one, without a trigram index over them (catalog/search-index.ts findWords: the words
// an index's trigram index does not hold yet): joined into one text with newlines between them, so that a term is
// found by indexOf running over the whole text, where a call of `includes` per word took some 12 ms for 250,000
// words. A word holds no white space, nor does a term, so a term found in the text lies inside one word.

/** Words `first` to `end - 1` of a table, joined by newlines, and where each starts in the text. */
export interface JoinedWords {
  first: number;
  end: number;
  text: string;
  /** starts[i] is where word first + i starts; starts[end - first] is one past the text's end. */
  starts: Uint32Array;
}

export function joinWords(words: readonly string[], first: number, end: number): JoinedWords {
  const slice = words.slice(first, end);
  const starts = new Uint32Array(slice.length + 1);
  let at = 0;
  for (let index = 0; index < slice.length; index += 1) {
    starts[index] = at;
    at += slice[index]!.length + 1;
  }
  starts[slice.length] = at;
  return { first, end, text: slice.join('\n'), starts };
}

/** Adds the numbers of the joined words that contain `term` (no white space in it) to `into`, in ascending order. */
export function findInJoined(joined: JoinedWords, term: string, into: number[]): void {
  const { text, starts } = joined;
  for (let at = text.indexOf(term); at !== -1; ) {
    // The word holding position `at`: the last one starting at or before it.
    let low = 0;
    let high = starts.length - 1;
    while (high - low > 1) {
      const middle = (low + high) >>> 1;
      if (starts[middle]! <= at) low = middle;
      else high = middle;
    }
    into.push(joined.first + low);
    at = text.indexOf(term, starts[low + 1]!);
  }
}
