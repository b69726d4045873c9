import 'reflect-metadata';
import { buildSchema, type PubSub } from 'type-graphql';
import { specifiedDirectives, type GraphQLSchema } from 'graphql';
import { cacheControlDirective } from '../graphql/cache-policy';
import { authChecker } from '../graphql/authorized';
import type { Services } from '../services';
import { AuthResolver } from './auth';
import { BlogResolver } from './blog';
import { ChatResolver } from './chat';
import { PresenceResolver } from './presence';
import { GiftsResolver } from './gifts';
import { IndexerResolver } from './indexer';
import { JobsResolver } from './jobs';
import { LeaderboardEntryResolver, LeaderboardsResolver } from './leaderboards';
import { PricesResolver } from './prices';
import { QuestsResolver } from './quests';
import { SocialLinksResolver } from './social-links';
import { SystemResolver } from './system';
import { UsersResolver } from './users';
import { ZkLoginResolver } from './zklogin';
import { AnalyticsResolver, BetActivityResolver } from './analytics';
import { OnrampsResolver } from './onramps';
import { WelcomeWheelResolver } from './welcome-wheel';
import { NameserviceResolver } from './nameservice';

export const resolvers = [SystemResolver, JobsResolver, AuthResolver, LeaderboardsResolver, BlogResolver, IndexerResolver, ZkLoginResolver, UsersResolver, SocialLinksResolver, QuestsResolver, PricesResolver, GiftsResolver, AnalyticsResolver, OnrampsResolver, WelcomeWheelResolver, NameserviceResolver, ChatResolver, PresenceResolver, LeaderboardEntryResolver, BetActivityResolver] as const;

/** Resolvers are constructed once with the services (see each resolver's constructor). */
export async function buildGraphqlSchema(opts: { services: Services; pubSub: PubSub }): Promise<GraphQLSchema> {
  const instances = new Map<unknown, unknown>();
  return buildSchema({
    resolvers,
    pubSub: opts.pubSub,
    validate: false,
    authChecker,
    // The cache hints' directive (resolvers set it with @Directive(cacheControl(…))).
    directives: [...specifiedDirectives, cacheControlDirective],
    container: {
      get(cls: new (services: Services) => unknown) {
        if (!instances.has(cls)) instances.set(cls, new cls(opts.services));
        return instances.get(cls);
      },
    },
  });
}
