import DataLoader from 'dataloader';
import type { GraphqlContext } from '../graphql/context';
import type { BetActivity } from '../services/analytics';
import type { PublicProfile } from '../services/users';

/**
 * Per-request DataLoaders for per-item lookups under lists (a leaderboard's rows → each player's
 * bets → each bet's profile): the items of one level are read in one statement, so a nested
 * query costs a constant number of statements whatever the list sizes. Kept per context object
 * (one per operation), so nothing is shared between callers.
 */
export interface Loaders {
  profile: DataLoader<string, PublicProfile | null>;
  recentBets(limit: number): DataLoader<string, BetActivity[]>;
}

const perOperation = new WeakMap<GraphqlContext, Loaders>();

export function loadersOf(ctx: GraphqlContext): Loaders {
  let loaders = perOperation.get(ctx);
  if (!loaders) {
    loaders = createLoaders(ctx);
    perOperation.set(ctx, loaders);
  }
  return loaders;
}

function createLoaders(ctx: GraphqlContext): Loaders {
  const { services, signal } = ctx;
  const bets = new Map<number, DataLoader<string, BetActivity[]>>();
  return {
    profile: new DataLoader(async (wallets) => {
      const found = await services.users.publicProfiles(wallets, { signal });
      return wallets.map((w) => found.get(w) ?? null);
    }),
    recentBets(limit) {
      let loader = bets.get(limit);
      if (!loader) {
        loader = new DataLoader(async (players) => {
          const found = await services.analytics.recentBetsOfPlayers(players, limit, { signal });
          return players.map((p) => found.get(p) ?? []);
        });
        bets.set(limit, loader);
      }
      return loader;
    },
  };
}
