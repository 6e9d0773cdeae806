// The file name an uploaded image is stored under: the base name only (`../../x.png` is `x.png`), letters,
// digits, `.`, `_` and `-` only, no leading dot (the blog ignores hidden names), and the extension of the
// detected type whatever the upload called itself.

const MAX_STEM = 80;

/** `My photo (1).PNG` with a JPEG inside -> `My-photo-1.jpg`. */
export function imageFileName(originalName: string, extension: string): string {
  const base = originalName.split(/[/\\]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const stem = (dot > 0 ? base.slice(0, dot) : base)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .replace(/-{2,}/g, '-')
    .slice(0, MAX_STEM)
    .replace(/[.-]+$/, '');
  return `${stem || 'image'}.${extension}`;
}

/** `name.png`, then `name-2.png`, `name-3.png`... */
export function numberedFileName(name: string, attempt: number): string {
  if (attempt <= 1) return name;
  const dot = name.lastIndexOf('.');
  return `${name.slice(0, dot)}-${attempt}${name.slice(dot)}`;
}
