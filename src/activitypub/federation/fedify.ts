// Fedify, loaded on first use (src/kit/lazy-module.ts): a blog without [blog.activitypub] never loads it, and the
// bundle of `npm run build` does not carry it.
import type * as Fedify from '@fedify/fedify';
import type * as Vocab from '@fedify/fedify/vocab';
import type * as TemporalPolyfill from '@js-temporal/polyfill';
import { lazyModule } from '../../kit/lazy-module.js';

export const fedify = lazyModule<typeof Fedify>('@fedify/fedify');
export const vocab = lazyModule<typeof Vocab>('@fedify/fedify/vocab');
/** The Temporal the library's vocabulary takes its times in. */
export const temporal = lazyModule<typeof TemporalPolyfill>('@js-temporal/polyfill');

export type { Fedify, Vocab };
