import { defineDomain } from '../domain';
import { createPresenceService } from './service';

export const presenceDomain = defineDomain({
  name: 'presence',
  settings: [],
  needs: [],
  create: ({ store, fanout, logger }) => ({ presence: createPresenceService({ store, fanout, logger }) }),
});
