import { createSuiWriter } from '../../providers/sui-writer';
import { defineDomain } from '../domain';
import { createChainWriterService } from './service';

export const chainWriterDomain = defineDomain({
  name: 'chain-writer',
  settings: ['chain', 'network'],
  needs: [],
  create: ({ config, db }) => {
    const { suiUrl, transport, packageId, writer } = config.chain;
    return {
      /** The chain-write outbox (enqueue / awaitOutcome); the jobs role runs its writer loop. */
      chainWriter: createChainWriterService({
        db,
        packageId,
        writer:
          writer.privateKey && suiUrl
            ? createSuiWriter({ url: suiUrl, transport, network: config.network, privateKey: writer.privateKey, gasBudget: BigInt(writer.gasBudget) })
            : null,
      }),
    };
  },
});
