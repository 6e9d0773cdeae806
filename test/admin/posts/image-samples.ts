// The first bytes of files of each image type, and a helper to make bytes.
/** Bytes from numbers and latin1 text. */
export const bytes = (...parts: Array<number[] | string>): Uint8Array =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

/** The first bytes of one file of each image type. */
export const samples = {
  png: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], 'IHDR'),
  jpeg: bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], 'JFIF\0'),
  gif87: bytes('GIF87a', [1, 0, 1, 0]),
  gif89: bytes('GIF89a', [1, 0, 1, 0]),
  webp: bytes('RIFF', [26, 0, 0, 0], 'WEBPVP8 '),
  avif: bytes([0, 0, 0, 28], 'ftypavif', [0, 0, 0, 0], 'avifmif1miaf'),
  avifCompatible: bytes([0, 0, 0, 24], 'ftypmif1', [0, 0, 0, 0], 'mif1avif'),
};

