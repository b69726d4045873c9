import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from '../config/index.js';
import type { Db } from '../db/client.js';
import type { Services } from '../services/index.js';
import type { SharedStore } from '../store/index.js';

export interface IndexerRoleDeps {
  config: Pick<Config, 'chain' | 'indexer'>;
  db: Db;
  logger: Logger;
  registry: Registry;
  services: Pick<Services, 'leaderboards' | 'hooks'>;
  store: SharedStore;
  shutdown: Array<() => Promise<void>>;
}

/**
 * The indexer role as the composition root starts it: nothing when INDEXER_DISABLED is true or
 * no chain endpoint is configured (logged), else one indexer competing for leadership.
 */
export async function startIndexerRole(deps: IndexerRoleDeps): Promise<void> {
  const { config, logger } = deps;
  if (config.indexer.disabled) {
    logger.info('indexer: INDEXER_DISABLED=true, no listener started');
    return;
  }
  if (!config.chain.suiUrl) {
    logger.warn('indexer: not started because CHAIN.SUI_URL (or CHAIN_SUI_URL) is not set; set it to a Sui GraphQL or gRPC-web endpoint (CHAIN.SUI_TRANSPORT) to follow PLATFORM_PACKAGE_ID');
    return;
  }
  // The chain clients and sources load only for an indexer that runs.
  const { createIndexer } = await import('./runner.js');
  const indexer = createIndexer({
    config: {
      packageId: config.chain.packageId,
      transport: config.chain.transport,
      suiUrl: config.chain.suiUrl,
      pollingIntervalMs: config.indexer.pollingIntervalMs,
    },
    db: deps.db,
    logger,
    registry: deps.registry,
    leaderboards: deps.services.leaderboards,
    hooks: deps.services.hooks,
    statusStore: deps.store,
    progressStream: process.stdout,
  });
  await indexer.start();
  // Stop following before the store and database close (they run later in the shutdown list).
  deps.shutdown.unshift(() => indexer.stop());
}
