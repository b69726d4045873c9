import { createMailer } from '../../providers/mailer';
import { defineDomain } from '../domain';
import { createUsersService } from './service';
import { createSocialLinksService } from './social-links';

export const usersDomain = defineDomain({
  name: 'users',
  settings: ['auth', 'social', 'smtp', 'nodeEnv', 'network'],
  needs: [],
  create: ({ config, db, store, logger }) => ({
    users: createUsersService({
      db,
      store,
      mailer: createMailer({ smtp: config.smtp, logger }),
      config: config.auth,
      allowLocalHttpUrls: config.nodeEnv !== 'production' && config.network !== 'mainnet',
    }),
    socialLinks: createSocialLinksService({ db, store, config, logger }),
  }),
});
