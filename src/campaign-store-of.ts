// Where campaigns are kept for a configuration: data_dir/campaigns, or PostgreSQL with `[state] backend =
// "postgres"` (docs/configuration.md "[state]"). `serve` hands in its one PostgresState; a command that runs
// without `serve` (`postbox newsletter`) opens its own and closes it when done.
import type { CampaignStore } from './campaigns/campaign-store.js';
import type { Config } from './config/config.js';
import { createSilentLogger } from './log.js';
import { campaignsDirOf, createCampaignFiles } from './storage/campaign-files.js';
import { createPostgresCampaignStore } from './storage/postgres/campaign-store.js';
import { createPostgresState, migratedForCommand, type PostgresState } from './storage/postgres/state.js';


/** The campaign store of `config`, over the composition root's PostgreSQL state when the backend is postgres. */
export function campaignStoreOf(config: Config, postgres: PostgresState | undefined): CampaignStore {
  if (config.state.backend === 'postgres' && !postgres) throw new Error('[state] backend = "postgres" needs the PostgreSQL state from the composition root');
  return postgres ? createPostgresCampaignStore(postgres) : createCampaignFiles(campaignsDirOf(config.data_dir));
}

/** A campaign store for a command; with PostgreSQL, rejects when the database does not answer within 10 seconds. */
export async function openCampaignStore(config: Config): Promise<{ store: CampaignStore; close(): Promise<void> }> {
  if (config.state.backend !== 'postgres') return { store: campaignStoreOf(config, undefined), close: async () => undefined };
  const postgres = createPostgresState(config.state.url!, createSilentLogger());
  try {
    await migratedForCommand(postgres);
  } catch {
    await postgres.close();
    throw new Error('PostgreSQL ([state] url) cannot be reached or migrated; try again once it answers');
  }
  return { store: campaignStoreOf(config, postgres), close: () => postgres.close() };
}
