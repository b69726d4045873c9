import 'reflect-metadata';
import { buildSchema, type PubSub } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import type { Services } from '../services';
import { AuthResolver } from './auth';
import { BlogResolver } from './blog';
import { IndexerResolver } from './indexer';
import { LeaderboardsResolver } from './leaderboards';
import { QuestsResolver } from './quests';
import { SocialLinksResolver } from './social-links';
import { SystemResolver } from './system';
import { UsersResolver } from './users';
import { ZkLoginResolver } from './zklogin';

export const resolvers = [SystemResolver, AuthResolver, LeaderboardsResolver, BlogResolver, IndexerResolver, ZkLoginResolver, UsersResolver, SocialLinksResolver, QuestsResolver] as const;

/** Resolvers are constructed once with the services (see each resolver's constructor). */
export async function buildGraphqlSchema(opts: { services: Services; pubSub: PubSub }): Promise<GraphQLSchema> {
  const instances = new Map<unknown, unknown>();
  return buildSchema({
    resolvers,
    pubSub: opts.pubSub,
    validate: false,
    container: {
      get(cls: new (services: Services) => unknown) {
        if (!instances.has(cls)) instances.set(cls, new cls(opts.services));
        return instances.get(cls);
      },
    },
  });
}
