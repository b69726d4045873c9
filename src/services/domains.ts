import { activityDomain } from './activity';
import { analyticsDomain } from './analytics';
import { authDomain } from './auth';
import { blogDomain } from './blog';
import { chainWritesDomain } from './chain-writes';
import { chatDomain } from './chat';
import { giftsDomain } from './gifts';
import { giveawaysDomain } from './giveaways';
import { leaderboardsDomain } from './leaderboards';
import { nameserviceDomain } from './nameservice';
import { onrampsDomain } from './onramps';
import { operatorsDomain } from './operators';
import { presenceDomain } from './presence';
import { pricesDomain } from './prices';
import { questsDomain } from './quests';
import { readCacheDomain } from './read-cache';
import { systemDomain } from './system';
import { usersDomain } from './users';
import { welcomeWheelDomain } from './welcome-wheel';

/**
 * Every domain of the platform, each created after the domains it needs (createServices checks
 * it). A new domain is its folder plus one line here; its resolvers, REST routes and jobs are
 * registered under the same name in src/resolvers, src/http/rest and src/jobs.
 */
export const domains = [
  readCacheDomain,
  systemDomain,
  authDomain,
  operatorsDomain,
  activityDomain,
  leaderboardsDomain,
  analyticsDomain,
  blogDomain,
  questsDomain,
  usersDomain,
  chatDomain,
  presenceDomain,
  onrampsDomain,
  chainWritesDomain,
  welcomeWheelDomain,
  nameserviceDomain,
  giveawaysDomain,
  pricesDomain,
  giftsDomain,
] as const;

export type DomainName = (typeof domains)[number]['name'];
