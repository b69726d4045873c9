import 'reflect-metadata';
import { buildSchema, type PubSub } from 'type-graphql';
import { specifiedDirectives, type GraphQLSchema } from 'graphql';
import { cacheControlDirective } from '../graphql/cache-policy';
import { createAuthChecker } from '../graphql/authorized';
import { domains, type DomainName, type Services } from '../services';
import { chainWriteOperations } from '../services/chain-writes';
import { chatModerationOperations, chatOperations } from '../services/chat';
import { zkLoginOperations } from '../services/auth';
import { giftOperations, giftPlayerOperations } from '../services/gifts';
import { nameserviceOperations } from '../services/nameservice';
import { onrampOperations } from '../services/onramps';
import { priceOperations } from '../services/prices';
import { welcomeWheelOperations } from '../services/welcome-wheel';
import { operatorOperations } from '../services/operators';
import { questOperations, questPlayerOperations } from '../services/quests';
import { resolverOf } from './operations';
import { AuthResolver } from './auth';
import { BlogResolver } from './blog';
import { ChatResolver } from './chat';
import { PresenceResolver } from './presence';
import { IndexerResolver } from './indexer';
import { JobsResolver } from './jobs';
import { LeaderboardEntryResolver, LeaderboardsResolver } from './leaderboards';
import { SocialLinksResolver } from './social-links';
import { SystemResolver } from './system';
import { UsersResolver } from './users';
import { AnalyticsResolver, BetActivityResolver } from './analytics';

/** Each domain's GraphQL resolvers, under its name in the registry (src/services/domains.ts). */
export const domainResolvers = {
  system: [SystemResolver, JobsResolver, IndexerResolver],
  auth: [AuthResolver, resolverOf(zkLoginOperations)],
  operators: [resolverOf(operatorOperations)],
  leaderboards: [LeaderboardsResolver, LeaderboardEntryResolver],
  analytics: [AnalyticsResolver, BetActivityResolver],
  blog: [BlogResolver],
  quests: [resolverOf(questPlayerOperations), resolverOf(questOperations)],
  users: [UsersResolver, SocialLinksResolver],
  chat: [ChatResolver, resolverOf(chatOperations), resolverOf(chatModerationOperations)],
  presence: [PresenceResolver],
  onramps: [resolverOf(onrampOperations)],
  'chain-writes': [resolverOf(chainWriteOperations)],
  'welcome-wheel': [resolverOf(welcomeWheelOperations)],
  nameservice: [resolverOf(nameserviceOperations)],
  prices: [resolverOf(priceOperations)],
  gifts: [resolverOf(giftPlayerOperations), resolverOf(giftOperations)],
} as const satisfies ResolversByDomain;

type GraphqlResolverClass = new (services: Services) => object;
type ResolversByDomain = { [D in DomainName]?: readonly GraphqlResolverClass[] };

/** The resolvers of every registered domain, in registry order. */
function registeredResolvers(): [GraphqlResolverClass, ...GraphqlResolverClass[]] {
  const byDomain: ResolversByDomain = domainResolvers;
  const [first, ...rest] = domains.flatMap((d) => byDomain[d.name] ?? []);
  if (!first) throw new Error('no domain registers a GraphQL resolver');
  return [first, ...rest];
}

/** Resolvers are constructed once with the services (see each resolver's constructor). */
export async function buildGraphqlSchema(opts: { services: Services; pubSub: PubSub }): Promise<GraphQLSchema> {
  const instances = new Map<unknown, unknown>();
  return buildSchema({
    resolvers: registeredResolvers(),
    pubSub: opts.pubSub,
    validate: false,
    authChecker: createAuthChecker(opts.services.operators),
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
