// `postbox migrate --from-files`, bounces: data_dir/bounces copied into PostgreSQL in one transaction: the
// suppressed addresses, the soft bounces still counting, each campaign's bounces and what the tags of the mails
// still kept stand for (docs/bounces.md "Suppression"). An address already in the database keeps its row, and every
// other record is copied once, so running it again copies nothing new.
import type { Config } from '../../config/config.js';
import { readSuppressionFiles, suppressionOfStored } from '../files/suppressions.js';
import type { ImportCount } from './import-count.js';
import type { PostgresState } from './state.js';
import { insertSuppressionRecords } from './suppressions.js';

/** `copied` and `skipped` count suppressed addresses. */
export async function importSuppressionsFromFiles(dataDir: string, config: Config, state: PostgresState): Promise<ImportCount> {
  // Where the records are does not depend on the configuration beyond data_dir.
  void config;
  const { list, sent } = await readSuppressionFiles(dataDir);
  const soft = Object.entries(list.soft).flatMap(([address, times]) => (Array.isArray(times) ? times.filter(Number.isFinite).map((at) => ({ address, at })) : []));
  const tallies = Object.entries(list.campaigns).flatMap(([campaign, tally]) =>
    (['hard', 'complaint'] as const).flatMap((kind) => (Array.isArray(tally?.[kind]) ? tally[kind].filter(Number.isInteger).map((index) => ({ campaign, index, kind, at: tally.at })) : [])),
  );
  return state.transaction((query) => insertSuppressionRecords(query, { suppressed: list.suppressed.map(suppressionOfStored), soft, sent, tallies }));
}
