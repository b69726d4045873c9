import type { ActivityService } from './activity';
import type { SystemService } from './system';
import type { TokenService } from './tokens';

/** Everything the adapters (resolvers, REST routes, gateway) may call. Built in src/main.ts. */
export interface Services {
  system: SystemService;
  tokens: TokenService;
  activity: ActivityService;
}
