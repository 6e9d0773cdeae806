// Uploaded images: the type comes from the bytes, the name from a cleaned base name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { imageFileName, numberedFileName } from '../../../src/admin/posts/image-name.js';
import { detectImageType } from '../../../src/kit/image-type.js';
import { bytes, samples } from './image-samples.js';


describe('detectImageType', () => {
  const table: Array<[string, Uint8Array, string | null]> = [
    ['PNG', samples.png, 'png'],
    ['JPEG', samples.jpeg, 'jpg'],
    ['GIF87a', samples.gif87, 'gif'],
    ['GIF89a', samples.gif89, 'gif'],
    ['WebP', samples.webp, 'webp'],
    ['AVIF (major brand)', samples.avif, 'avif'],
    ['AVIF (compatible brand)', samples.avifCompatible, 'avif'],
    ['HEIC is not AVIF', bytes([0, 0, 0, 24], 'ftypheic', [0, 0, 0, 0], 'mif1heic'), null],
    ['MP4', bytes([0, 0, 0, 24], 'ftypisom', [0, 0, 0, 0], 'isomiso2'), null],
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), null],
    ['SVG with an XML declaration', bytes('<?xml version="1.0"?><svg/>'), null],
    ['HTML', bytes('<!doctype html><script>alert(1)</script>'), null],
    ['RIFF that is WAV', bytes('RIFF', [26, 0, 0, 0], 'WAVEfmt '), null],
    ['a truncated PNG signature', bytes([0x89, 0x50, 0x4e, 0x47]), null],
    ['empty', bytes(), null],
  ];
  for (const [name, content, extension] of table) {
    it(`${name} -> ${extension ?? 'refused'}`, () => assert.equal(detectImageType(content)?.extension ?? null, extension));
  }
});

describe('imageFileName', () => {
  const table: Array<[string, string, string]> = [
    ['../../x.png', 'png', 'x.png'],
    ['..\\..\\x.png', 'png', 'x.png'],
    ['/etc/passwd', 'png', 'passwd.png'],
    ['My photo (1).PNG', 'jpg', 'My-photo-1.jpg'],
    ['résumé.webp', 'webp', 'resume.webp'],
    ['.htaccess', 'gif', 'htaccess.gif'],
    ['..', 'png', 'image.png'],
    ['', 'png', 'image.png'],
    ['日本.png', 'png', 'image.png'],
    ['page.html', 'png', 'page.png'],
    ['a.b.c.jpeg', 'jpg', 'a.b.c.jpg'],
  ];
  for (const [original, extension, expected] of table) {
    it(`${JSON.stringify(original)} -> ${expected}`, () => assert.equal(imageFileName(original, extension), expected));
  }

  it('numbers a name that is taken', () => {
    assert.equal(numberedFileName('x.png', 1), 'x.png');
    assert.equal(numberedFileName('x.png', 3), 'x-3.png');
  });
});
