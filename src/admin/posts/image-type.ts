// Which image an upload is, by its first bytes (contract section 6 "Media": PNG, JPEG, GIF, WebP, AVIF, checked by
// content, not by name; no SVG). Anything else, SVG and HTML included, is no image here.

export interface ImageType {
  extension: 'png' | 'jpg' | 'gif' | 'webp' | 'avif';
  mediaType: string;
}

const ascii = (bytes: Uint8Array, start: number, end: number): string => String.fromCharCode(...bytes.subarray(start, end));

/** The image type of `bytes`, or null. Signatures: PNG spec 5.2, JFIF SOI marker, GIF87a/89a, RIFF WEBP, ISO BMFF `ftyp` brand. */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, index) => bytes[index] === byte)) {
    return { extension: 'png', mediaType: 'image/png' };
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { extension: 'jpg', mediaType: 'image/jpeg' };
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return { extension: 'gif', mediaType: 'image/gif' };
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return { extension: 'webp', mediaType: 'image/webp' };
  if (bytes.length >= 16 && ascii(bytes, 4, 8) === 'ftyp' && avifBrands(bytes)) return { extension: 'avif', mediaType: 'image/avif' };
  return null;
}

/** An AVIF file's `ftyp` box names `avif` or `avis` as its major brand or among its compatible brands. */
function avifBrands(bytes: Uint8Array): boolean {
  const boxSize = Math.min(bytes.length, ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0);
  const brands = [ascii(bytes, 8, 12)];
  for (let offset = 16; offset + 4 <= boxSize; offset += 4) brands.push(ascii(bytes, offset, offset + 4));
  return brands.includes('avif') || brands.includes('avis');
}
