// Which content coding an answer goes out in, read from the request's Accept-Encoding (docs/blog.md "HTTP
// details"): brotli or gzip when the client takes them, brotli first on a tie, the identity otherwise. Quality
// values are honoured: `br;q=0` refuses brotli, `*` stands for every coding not named, and an `identity` ranked
// above both codings keeps the answer plain.

/** The codings Postbox compresses with, in the order it prefers them. */
export type ContentCoding = 'br' | 'gzip';

/** Distinct Accept-Encoding values remembered; browsers send a handful, so the memo rarely starts over. */
const MEMO_SIZE = 64;

const memo = new Map<string, ContentCoding | undefined>();

/** The coding to answer `header` with; undefined for the identity (no header, nothing acceptable, identity preferred). */
export function preferredCoding(header: string | undefined): ContentCoding | undefined {
  if (header === undefined || header === '') return undefined;
  if (memo.has(header)) return memo.get(header);
  const chosen = chooseCoding(header);
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(header, chosen);
  return chosen;
}

/** A quality value as the grammar allows it (0 to 1, at most three decimals); undefined when malformed. */
function qualityOf(text: string): number | undefined {
  return /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(text) ? Number(text) : undefined;
}

function chooseCoding(header: string): ContentCoding | undefined {
  const named = new Map<string, number>();
  for (const item of header.split(',')) {
    const [token = '', ...parameters] = item.split(';');
    const coding = token.trim().toLowerCase();
    if (coding === '') continue;
    let quality: number | undefined = 1;
    for (const parameter of parameters) {
      const [name = '', value = ''] = parameter.split('=');
      if (name.trim().toLowerCase() === 'q') quality = qualityOf(value.trim());
    }
    // A malformed entry says nothing: it neither offers nor refuses its coding.
    if (quality === undefined) continue;
    // "x-gzip" is an old name of gzip; the first entry for a coding counts.
    const key = coding === 'x-gzip' ? 'gzip' : coding;
    if (!named.has(key)) named.set(key, quality);
  }
  const any = named.get('*');
  const br = named.get('br') ?? any ?? 0;
  const gzip = named.get('gzip') ?? any ?? 0;
  const best: ContentCoding = gzip > br ? 'gzip' : 'br';
  const bestQuality = Math.max(br, gzip);
  if (bestQuality === 0) return undefined;
  // The identity is always acceptable unless refused; it wins only when the client ranks it above both codings.
  const identity = named.get('identity') ?? any;
  return identity !== undefined && identity > bestQuality ? undefined : best;
}
