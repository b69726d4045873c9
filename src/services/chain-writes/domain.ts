import { defineDomain } from '../domain';
import { operatorsDomain } from '../operators';
import { createChainWriteAdmin } from './admin';
import { registerChainWriteMetrics } from './metrics';
import { createChainWriterService } from './service';

export const chainWritesDomain = defineDomain({
  name: 'chain-writes',
  settings: ['chain', 'network'],
  needs: [operatorsDomain],
  create: async ({ config, db, logger, registry, now = () => new Date() }, { audit }) => {
    const { suiUrl, transport, packageId, writer } = config.chain;
    // The SDK's signer and clients load only where a writer is configured.
    const createSuiWriter = writer.privateKey && suiUrl ? (await import('../../providers/sui-writer')).createSuiWriter : null;
    const createMoveModuleReader = createSuiWriter ? (await import('../../providers/sui-move-modules')).createMoveModuleReader : null;
    const chainWriter = createChainWriterService({
      db,
      packageId,
      writer:
        createSuiWriter && writer.privateKey && suiUrl
          ? createSuiWriter({
              url: suiUrl,
              transport,
              network: config.network,
              privateKey: writer.privateKey,
              gasCeiling: BigInt(writer.gasCeiling),
              gasMarginPercent: writer.gasMarginPercent,
            })
          : null,
      readModules: createMoveModuleReader && suiUrl ? createMoveModuleReader({ url: suiUrl, transport, network: config.network }) : null,
    });
    if (registry) registerChainWriteMetrics({ registry, db, logger, now });
    return {
      /** The chain-write outbox (enqueue / awaitOutcome); the jobs role runs its writer loop. */
      chainWriter,
      /** Operators: list, retry (failed → queued) and cancel (queued) writes, each audited. */
      chainWrites: createChainWriteAdmin({ db, audit, wake: chainWriter.wake, now }),
    };
  },
});
