import { defineDomain } from '../domain';
import { createPresenceService } from './service';

export const presenceDomain = defineDomain({
  name: 'presence',
  settings: [],
  needs: [],
  create: ({ store, bus, logger }) => ({ presence: createPresenceService({ store, bus, logger }) }),
});
