// The reference scenarios: one GraphQL document (sent unchanged to our API and both Mercurius
// servers) and the raw Fastify route answering the same data.
import { player } from '../seed';

export interface Request {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface Scenario {
  name: string;
  /** --only accepts the name or the group. */
  group: string;
  graphql: string;
  raw: Request;
}

/** The BET board's player ranked 50,000 (of 100,000): found by the runner before the load. */
export interface ScenarioInputs {
  rankedPlayer: string;
}

const TOP_FIELDS = 'rank player score count coinType vipLevel';
export const NESTED_QUERY = `{ leaderboard(board: BET, limit: 20) { rank player score profile { displayName avatarUrl }
  recentBets(limit: 20) { txDigest gameId stake payout won profile { displayName avatarUrl } } } }`;
export const QUEST_CHECKS = Array.from({ length: 20 }, (_, i) => ({ questKey: 'daily-bet', mode: 'indexed', player: player(1 + i * 4999) }));
const QUEST_LIST = `{ questCampaigns { slug type name title description copyText startAt endAt managesClaims
  quests { key title description xpReward timePeriod modes lifecycle performanceDaily startAt endAt periodEnd } } }`;
export const BLOG_LIST_QUERY = '{ blogPosts(page: 1, limit: 20) { page totalPosts totalPages hasNextPage posts { slug title excerpt author tags publishedAt url } } }';
const gqlChecks = QUEST_CHECKS.map((c) => `{ questKey: "${c.questKey}", mode: "${c.mode}", player: "${c.player}" }`).join(', ');

export function scenarios(inputs: ScenarioInputs): Scenario[] {
  const top = (board: string): Scenario => ({
    name: `top100-${board.toLowerCase().replace('_', '-')}`,
    group: 'top100',
    graphql: `{ leaderboard(board: ${board}, limit: 100) { ${TOP_FIELDS} } }`,
    raw: { method: 'GET', path: `/raw/top/${board}` },
  });
  return [
    { name: 'trivial', group: 'trivial', graphql: '{ __typename }', raw: { method: 'GET', path: '/raw/trivial' } },
    top('XP'),
    top('BET'),
    top('WEEKLY_BET'),
    top('REFERRAL'),
    {
      name: 'rank',
      group: 'rank',
      graphql: `{ leaderboardNeighbours(board: BET, player: "${inputs.rankedPlayer}", count: 5) { ${TOP_FIELDS} } }`,
      raw: { method: 'GET', path: `/raw/neighbours?player=${inputs.rankedPlayer}&count=5` },
    },
    { name: 'quest-list', group: 'quests', graphql: QUEST_LIST, raw: { method: 'GET', path: '/raw/quests/list' } },
    {
      name: 'quest-status',
      group: 'quests',
      graphql: `{ questBatchStatus(campaignSlug: "platform", checks: [${gqlChecks}]) { questKey player progress target completed claimed } }`,
      raw: { method: 'POST', path: '/raw/quests/status', body: JSON.stringify({ campaignSlug: 'platform', checks: QUEST_CHECKS }) },
    },
    { name: 'nested', group: 'nested', graphql: NESTED_QUERY, raw: { method: 'GET', path: '/raw/nested' } },
    { name: 'blog-list', group: 'blog', graphql: BLOG_LIST_QUERY, raw: { method: 'GET', path: '/raw/blog/list?page=1&limit=20' } },
  ];
}
