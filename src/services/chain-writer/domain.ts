import { defineDomain } from '../domain';
import { createChainWriterService } from './service';

export const chainWriterDomain = defineDomain({
  name: 'chain-writer',
  settings: ['chain', 'network'],
  needs: [],
  create: async ({ config, db }) => {
    const { suiUrl, transport, packageId, writer } = config.chain;
    // The SDK's signer and clients load only where a writer is configured.
    const createSuiWriter = writer.privateKey && suiUrl ? (await import('../../providers/sui-writer')).createSuiWriter : null;
    const createMoveModuleReader = createSuiWriter ? (await import('../../providers/sui-move-modules')).createMoveModuleReader : null;
    return {
      /** The chain-write outbox (enqueue / awaitOutcome); the jobs role runs its writer loop. */
      chainWriter: createChainWriterService({
        db,
        packageId,
        writer:
          createSuiWriter && writer.privateKey && suiUrl
            ? createSuiWriter({ url: suiUrl, transport, network: config.network, privateKey: writer.privateKey, gasBudget: BigInt(writer.gasBudget) })
            : null,
        readModules: createMoveModuleReader && suiUrl ? createMoveModuleReader({ url: suiUrl, transport, network: config.network }) : null,
      }),
    };
  },
});
