import { chainWritesDomain } from '../chain-writes';
import { defineDomain } from '../domain';
import { createNameserviceService } from './service';
import { registerSubnameIssuance } from './subname';

export const nameserviceDomain = defineDomain({
  name: 'nameservice',
  settings: ['chain'],
  needs: [chainWritesDomain],
  create: ({ config, db }, { chainWriter }) => {
    registerSubnameIssuance(chainWriter, config.chain.nameservice.subdomainsPackageId);
    /** Name-service sub-names (one per eligible player, issued through the chain writer). */
    return { nameservice: createNameserviceService({ db, chainWriter, config: config.chain.nameservice }) };
  },
});
