// The one place that picks where records are kept (docs/configuration.md "[state]"): the files of data_dir, or
// PostgreSQL. Everything else is handed the Backend it opened.
import type { Backend } from '../adapters/backend.js';
import { openBackend as openFilesBackend } from '../adapters/files/backend.js';
import { openBackend as openPostgresBackend } from '../adapters/postgres/backend.js';
import { postgresUrlOf, type Config } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import type { Clock } from '../ports.js';

/** The backend `[state]` names; `clock` dates what a store stamps itself (a retry request). */
export function openBackend(config: Config, logger: Logger, clock: Clock = Date.now): Backend {
  return postgresUrlOf(config) === undefined ? openFilesBackend(config, logger) : openPostgresBackend(config, logger, clock);
}
