// Which image a file holds, from its first bytes (docs/blog.md "Images beside a post"; docs/admin.md "Posts"): PNG,
// JPEG, GIF, WebP and AVIF only, never by the file's name, and no SVG (a document that can run scripts). The admin
// checks uploads with it, the blog the files it serves. Pure.

export interface ImageType {
  extension: 'png' | 'jpg' | 'gif' | 'webp' | 'avif';
  mediaType: string;
}

/** Bytes to read for detectImageType: enough for the AVIF brand list. */
export const IMAGE_HEAD_BYTES = 64;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const AVIF_BRANDS = new Set(['avif', 'avis']);

/** The image type `head` (the start of a file) begins, or null for anything else, SVG and HTML included. */
export function detectImageType(head: Uint8Array): ImageType | null {
  const ascii = (start: number, end: number) => String.fromCharCode(...head.subarray(start, end));
  if (head.length >= 8 && PNG.every((byte, index) => head[index] === byte)) return { extension: 'png', mediaType: 'image/png' };
  // JPEG: SOI marker then the first segment's marker (JFIF, Exif, quantisation table...).
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { extension: 'jpg', mediaType: 'image/jpeg' };
  if (head.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) return { extension: 'gif', mediaType: 'image/gif' };
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return { extension: 'webp', mediaType: 'image/webp' };
  if (head.length >= 16 && ascii(4, 8) === 'ftyp' && hasAvifBrand(head)) return { extension: 'avif', mediaType: 'image/avif' };
  return null;
}

// ISO BMFF (ISO/IEC 14496-12 section 4.3): the ftyp box holds a major brand, a minor version, then compatible
// brands; AVIF files name "avif" (still image) or "avis" (sequence) among them (AV1 Image File Format 9.1).
function hasAvifBrand(head: Uint8Array): boolean {
  const boxSize = ((head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!) >>> 0;
  const end = Math.min(boxSize, head.length);
  if (boxSize < 16) return false;
  for (let offset = 8; offset + 4 <= end; offset += offset === 8 ? 8 : 4) {
    if (AVIF_BRANDS.has(String.fromCharCode(...head.subarray(offset, offset + 4)))) return true;
  }
  return false;
}
