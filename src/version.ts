// The version `postbox --version` prints: package.json's, read where the package is installed. Both src/ (under
// tsx) and dist/ sit one folder below it, and npm always packs package.json.
import { createRequire } from 'node:module';

/** The package's version, e.g. "0.1.0". */
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
