import type { Prisma } from '../../generated/prisma/client';
import type { QuestEvaluator } from './evaluators';
import { questMode, type QuestMode, type TimePeriod } from './model';

/**
 * The default quest catalogue: typed quest definitions grouped by campaign (the UTC periods they
 * run in are periods.ts; a quest's window and state, quest-window.ts). It is the first-boot seed
 * only: campaigns and quests live in the `campaign` and `quest` tables (catalogue-store.ts reads
 * them; seed.ts inserts the ones missing, never changes a row) and operators own them afterwards
 * through /api/admin/campaigns. Evaluators are declarative
 * (evaluators.ts), so one SQL builder serves status reads, progress upkeep, the rebuild and the claim.
 */

export interface QuestDefinition {
  key: string;
  title: string;
  description: string;
  xpReward: number;
  timePeriod: TimePeriod;
  modes: readonly QuestMode[];
  evaluator: QuestEvaluator;
  /** Progress needed (a count, base units for `wagered`, a level for `vip_level`). */
  target: bigint;
  /** false: listed as `inactive`, never claimable. Default true. */
  enabled?: boolean;
  /** Optional window inside the campaign's (UTC, end exclusive). */
  startAt?: Date;
  endAt?: Date;
  /** The campaign's daily performance quest (`/campaigns/:slug/performance_daily/status`). */
  performanceDaily?: boolean;
}

/** The `campaign` columns a seed may set (the others are the database's). */
type CampaignColumns = Omit<Prisma.CampaignGetPayload<object>, 'id' | 'createdAt' | 'updatedAt' | 'version'>;
/** A campaign of the seed: its identity, kind and window; the rest as the table defaults them (null, or `enabled` true). */
export type CampaignSeed = Pick<CampaignColumns, 'slug' | 'type' | 'startAt' | 'endAt' | 'managesClaims'> & Partial<CampaignColumns>;

export interface CatalogueCampaign {
  campaign: CampaignSeed;
  quests: readonly QuestDefinition[];
}

export type Catalogue = readonly CatalogueCampaign[];

const SUI = '0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI';
const ONE_SUI = 1_000_000_000n;
const BOTH_MODES = questMode.options;

/** The platform's own campaign: always active, claims handled here. */
export const DEFAULT_CATALOGUE: Catalogue = [
  {
    campaign: {
      slug: 'platform',
      type: 'platform',
      startAt: new Date('1970-01-01T00:00:00.000Z'),
      endAt: new Date('9999-12-31T00:00:00.000Z'),
      managesClaims: false,
      name: 'Platform quests',
      title: 'Play, climb, earn XP',
      description: 'Daily, weekly and one-off quests of the platform; rewards are XP on the XP leaderboard.',
    },
    quests: [
      { key: 'daily-bet', title: 'Place a bet today', description: 'Place one bet in any game before 00:00 UTC.', xpReward: 50, timePeriod: 'daily', modes: BOTH_MODES, evaluator: { kind: 'bets_placed' }, target: 1n },
      { key: 'daily-wins', title: 'Win three bets today', description: 'Win three bets in any game before 00:00 UTC.', xpReward: 120, timePeriod: 'daily', modes: BOTH_MODES, evaluator: { kind: 'bets_won' }, target: 3n, performanceDaily: true },
      { key: 'daily-streak', title: 'Keep your streak', description: 'Claim your daily streak reward today.', xpReward: 30, timePeriod: 'daily', modes: BOTH_MODES, evaluator: { kind: 'daily_streak_claims' }, target: 1n },
      { key: 'weekly-bets', title: 'Twenty-five bets this week', description: 'Place 25 bets between Monday 00:00 UTC and the next Monday.', xpReward: 300, timePeriod: 'weekly', modes: BOTH_MODES, evaluator: { kind: 'bets_placed' }, target: 25n },
      { key: 'weekly-wager', title: 'Wager 100 SUI this week', description: 'Wager 100 SUI in total this week (Monday 00:00 UTC start).', xpReward: 500, timePeriod: 'weekly', modes: BOTH_MODES, evaluator: { kind: 'wagered', coinType: SUI }, target: 100n * ONE_SUI },
      { key: 'first-referral', title: 'Bring a friend', description: 'Earn your first referral reward.', xpReward: 200, timePeriod: 'once', modes: BOTH_MODES, evaluator: { kind: 'referrals' }, target: 1n },
      { key: 'daily-login-streak', title: 'Log in three days running', description: 'Log in on three consecutive UTC days; a missed day starts the count over.', xpReward: 40, timePeriod: 'daily', modes: BOTH_MODES, evaluator: { kind: 'login_streak' }, target: 3n },
      { key: 'vip-level-5', title: 'Reach VIP level 5', description: 'Reach VIP level 5.', xpReward: 1000, timePeriod: 'once', modes: BOTH_MODES, evaluator: { kind: 'vip_level' }, target: 5n },
    ],
  },
];

/** Checks a catalogue once at start-up: unique keys, positive targets and rewards, one performance quest per campaign. */
export function validateCatalogue(catalogue: Catalogue): void {
  const slugs = new Set<string>();
  for (const { campaign, quests } of catalogue) {
    if (slugs.has(campaign.slug)) throw new Error(`quest catalogue: campaign "${campaign.slug}" appears twice`);
    slugs.add(campaign.slug);
    const keys = new Set<string>();
    for (const q of quests) {
      if (keys.has(q.key)) throw new Error(`quest catalogue: "${campaign.slug}/${q.key}" appears twice`);
      if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(q.key) || q.key === 'performance_daily') throw new Error(`quest catalogue: key "${q.key}" must be lowercase letters, digits and dashes`);
      if (q.target < 1n || !Number.isInteger(q.xpReward) || q.xpReward < 1) throw new Error(`quest catalogue: "${q.key}" needs a positive target and XP reward`);
      if (q.modes.length === 0) throw new Error(`quest catalogue: "${q.key}" supports no mode`);
      keys.add(q.key);
    }
    if (quests.filter((q) => q.performanceDaily).length > 1) throw new Error(`quest catalogue: campaign "${campaign.slug}" has more than one performance_daily quest`);
    if (quests.some((q) => q.performanceDaily && q.timePeriod !== 'daily')) throw new Error(`quest catalogue: the performance_daily quest of "${campaign.slug}" must be daily`);
  }
}
