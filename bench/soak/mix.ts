// The soak's request mix: public reads over REST and GraphQL (quest catalogue, statuses,
// leaderboards, prices, the blog's posts), quest claims by logged-in wallets (the wallets have no bets, so the designed
// answers are QUEST_INCOMPLETE, DUPLICATE_CLAIM and the per-wallet claim limit's 429) and the whole
// wallet login (challenge → signed login → refresh). One `fire()` is one request of the mix.
import type { HttpClient, HttpCall } from './http';
import { loginFlow, type Wallet } from './wallets';

const CLAIM_DESIGNED = ['QUEST_INCOMPLETE', 'DUPLICATE_CLAIM'] as const;
const CLAIMED_QUESTS = ['daily-bet', 'daily-streak', 'weekly-bets', 'first-referral'];

const gql = (query: string, variables?: Record<string, unknown>): Pick<HttpCall, 'method' | 'path' | 'json'> => ({ method: 'POST', path: '/graphql', json: { query, variables } });

interface Entry {
  op: string;
  weight: number;
  run(http: HttpClient, replica: number, ip: string, wallet: Wallet): Promise<unknown>;
}

/** Relative weights of the mix's operations (a login is three requests in a row). */
const MIX: Entry[] = [
  { op: 'rest.quests', weight: 10, run: (h, r, ip) => h.call('rest.quests', r, { method: 'GET', path: '/api/quests/list', ip }) },
  { op: 'rest.leaderboard', weight: 10, run: (h, r, ip) => h.call('rest.leaderboard', r, { method: 'GET', path: '/api/stats/leaderboards/xp', ip }) },
  { op: 'rest.price', weight: 8, run: (h, r, ip) => h.call('rest.price', r, { method: 'GET', path: '/api/price', ip }) },
  { op: 'rest.statuses', weight: 8, run: (h, r, ip, w) => h.call('rest.statuses', r, { method: 'GET', path: `/api/quests/status?player=${w.address}`, ip }) },
  { op: 'gql.leaderboard', weight: 12, run: (h, r, ip) => h.call('gql.leaderboard', r, { ...gql('{ leaderboard(board: XP, limit: 10) { rank player score } }'), ip }) },
  { op: 'gql.campaigns', weight: 8, run: (h, r, ip) => h.call('gql.campaigns', r, { ...gql('{ questCampaigns { slug enabled quests { key } } }'), ip }) },
  { op: 'gql.prices', weight: 8, run: (h, r, ip) => h.call('gql.prices', r, { ...gql('{ prices { source ageSeconds } }'), ip }) },
  { op: 'gql.blog', weight: 4, run: (h, r, ip) => h.call('gql.blog', r, { ...gql('{ blogPosts(limit: 10) { totalPosts posts { slug title } } }'), ip }) },
  {
    op: 'gql.statuses',
    weight: 8,
    run: (h, r, ip, w) => h.call('gql.statuses', r, { ...gql('query($p: String) { questStatuses(player: $p) { questKey claimed progress } }', { p: w.address }), ip }),
  },
  {
    op: 'rest.claim',
    weight: 8,
    run: (h, r, _ip, w) =>
      h.call('rest.claim', r, { method: 'POST', path: `/api/quests/campaigns/platform/${pick(CLAIMED_QUESTS)}/claim`, ip: w.ip, token: w.accessToken, json: {}, designed: CLAIM_DESIGNED }),
  },
  { op: 'login', weight: 2, run: (h, r, ip) => loginFlow(h, r, ip) },
];
const TOTAL = MIX.reduce((n, e) => n + e.weight, 0);

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

/** One of 4,096 client addresses (10.0.0.0/20). */
export const randomIp = (): string => {
  const n = Math.floor(Math.random() * 4096);
  return `10.0.${n >> 8}.${n & 255}`;
};

/** One request of the mix, on a random replica, from a random client (reads) or a pool wallet (claims). */
export function mixRequest(http: HttpClient, wallets: readonly Wallet[]): () => Promise<void> {
  return async () => {
    let x = Math.random() * TOTAL;
    const entry = MIX.find((e) => (x -= e.weight) < 0) ?? MIX[0]!;
    await entry.run(http, Math.floor(Math.random() * http.replicas), randomIp(), pick(wallets));
  };
}
