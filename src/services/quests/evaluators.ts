import { z } from 'zod';
import { tableOf, type KindKey } from '../../chain-events/kinds';
import { normalizeMoveType } from '../../input/move-type';
import { named } from '../model-names';
import type { TimePeriod } from './periods';

/** A coin filter: a Move type, normalized the way the indexer stores `coin_type` (`0x2::sui::SUI` → `0x0…02::sui::SUI`). */
const coinType = z
  .string()
  .max(512)
  .transform((value, ctx) => {
    try {
      const normalized = normalizeMoveType(value);
      if (/^0x[0-9a-f]{64}::\w+::\w+/.test(normalized)) return normalized;
    } catch {
      // refused below
    }
    ctx.addIssue({ code: 'custom', message: 'must be a Move coin type such as 0x2::sui::SUI' });
    return z.NEVER;
  });

/**
 * The evaluator registry: every kind a quest can count, with the parameters it takes besides its
 * kind (validated here for stored and operator-made quests alike) and what its target means.
 */
export const EVALUATORS = {
  bets_placed: { params: { coinType: coinType.optional() }, target: 'bets placed in the period (of `coinType` when given)' },
  bets_won: { params: { coinType: coinType.optional() }, target: 'bets won in the period (of `coinType` when given)' },
  wagered: { params: { coinType }, target: 'stake wagered in the period, in base units of `coinType`' },
  daily_streak_claims: { params: {}, target: 'daily streak rewards claimed in the period' },
  vip_level: { params: {}, target: 'the VIP level reached' },
  referrals: { params: {}, target: 'distinct referees that earned the player a referral reward in the period' },
  /** Consecutive UTC days with a login, up to the last login of the period; a missed day starts over. */
  login_streak: { params: {}, target: 'consecutive UTC days with a login, up to the last login of the period' },
} as const;

export type EvaluatorKind = keyof typeof EVALUATORS;
export const evaluatorKind = named('QuestEvaluatorKind', z.enum(Object.keys(EVALUATORS) as [EvaluatorKind, ...EvaluatorKind[]]));

/** One kind's evaluator: its kind and the parameters the registry gives it. */
type EvaluatorModel<K extends EvaluatorKind> = z.ZodObject<{ kind: z.ZodLiteral<K> } & { -readonly [P in keyof (typeof EVALUATORS)[K]['params']]: (typeof EVALUATORS)[K]['params'][P] }, z.core.$strict>;
type AnyEvaluatorModel = { [K in EvaluatorKind]: EvaluatorModel<K> }[EvaluatorKind];
const evaluatorModels = (Object.keys(EVALUATORS) as EvaluatorKind[]).map((kind) => z.object({ kind: z.literal(kind), ...EVALUATORS[kind].params }).strict());

/** `kind: what the target counts` for each kind of the registry (API descriptions). */
export const EVALUATORS_TEXT = Object.entries(EVALUATORS)
  .map(([kind, e]) => `\`${kind}\`${Object.keys(e.params).length ? ` (${Object.keys(e.params).join(', ')})` : ''}: ${e.target}`)
  .join('; ');

/** What a quest counts: a kind of the registry and its parameters (`{ kind: 'wagered', coinType: '0x2::sui::SUI' }`), one member per registry entry. */
export const questEvaluator = named('QuestEvaluatorInput', z.discriminatedUnion('kind', evaluatorModels as unknown as [AnyEvaluatorModel, ...AnyEvaluatorModel[]]), {
  description: `What the quest counts: \`kind\` and its parameters. ${EVALUATORS_TEXT}`,
});
/** What a quest counts: over the event tables the indexer writes, or over the wallets' login days. */
export type QuestEvaluator = z.output<typeof questEvaluator>;

/**
 * Where an evaluator's facts come from, so what refreshes its stored progress: a chain event table
 * (the indexer's `chainIndexed` hook) or the wallets' login days (auth's `walletLoggedIn` hook).
 */
export type EvaluatorSource = { from: 'chain'; kind: KindKey } | { from: 'logins' };

type Param = (value: unknown) => string;

/** An evaluator as SQL over its source. */
interface EvaluatorSql {
  source: EvaluatorSource;
  /** Adds `progress` (numeric) to each row of `keys`, a relation (player, period_start, period_end) aliased `k`. */
  perKey(param: Param): string;
  /** Every (player, period_start, progress) the source has rows for: the rebuild's truth. */
  all(period: TimePeriod, param: Param): string;
  /** The player a decoded chain event counts for (chain sources only). */
  playerColumn?: 'player' | 'referrer';
}

/** The UTC period start of a timestamptz expression, as SQL (weeks are ISO: Monday 00:00 UTC). */
function periodStartSql(period: TimePeriod, at: string): string {
  if (period === 'once') return `'1970-01-01T00:00:00Z'::timestamptz`;
  return `date_trunc('${period === 'daily' ? 'day' : 'week'}', ${at}, 'UTC')`;
}

/**
 * An aggregate over one event table (rows aliased `e`), with its condition in a FILTER, so every
 * (player, period) that has any event of the kind gets a row, also when the condition matches
 * none: the per-batch upkeep and the rebuild then agree.
 */
function chainAggregate(kind: KindKey, playerColumn: 'player' | 'referrer', aggregate: (param: Param) => string): EvaluatorSql {
  return {
    source: { from: 'chain', kind },
    playerColumn,
    perKey: (p) => `(SELECT ${aggregate(p)} FROM ${tableOf(kind)} e
                      WHERE e.${playerColumn} = k.player AND e.timestamp_ms >= k.period_start AND e.timestamp_ms < k.period_end)`,
    all: (period, p) => `SELECT e.${playerColumn} AS player, ${periodStartSql(period, 'e.timestamp_ms')} AS period_start, (${aggregate(p)})::numeric AS progress
                           FROM ${tableOf(kind)} e GROUP BY 1, 2`,
  };
}

const utcDate = (timestamptz: string) => `(${timestamptz} AT TIME ZONE 'UTC')::date`;

/**
 * The login streak of a period: the run of consecutive UTC login days ending at the player's last
 * login day inside the period (0 without one). Walking the days back from that last one, a day
 * belongs to the run while it is exactly n-1 days before it.
 */
const loginStreak: EvaluatorSql = {
  source: { from: 'logins' },
  perKey: () => `(SELECT count(*) FROM (
                     SELECT d.day, row_number() OVER (ORDER BY d.day DESC) AS n, max(d.day) OVER () AS last
                       FROM login_day d WHERE d.wallet_address = k.player AND d.day < ${utcDate('k.period_end')}) s
                   WHERE s.last >= ${utcDate('k.period_start')} AND s.last - s.day = s.n - 1)`,
  // Islands of consecutive days share day - row_number(); the run length at a day is its rank in its island.
  all: (period) => `SELECT g.player, g.period_start, ((array_agg(g.run ORDER BY g.day DESC))[1])::numeric AS progress
                      FROM (SELECT i.player, i.day, ${periodStartSql(period, `(i.day::timestamp AT TIME ZONE 'UTC')`)} AS period_start,
                                   row_number() OVER (PARTITION BY i.player, i.island ORDER BY i.day) AS run
                              FROM (SELECT d.wallet_address AS player, d.day,
                                           d.day - (row_number() OVER (PARTITION BY d.wallet_address ORDER BY d.day))::int AS island
                                      FROM login_day d) i) g
                     GROUP BY 1, 2`,
};

const coinIs = (coinType: string | undefined, param: Param) => (coinType ? `e.coin_type = ${param(coinType)}` : null);
const filter = (parts: Array<string | null>) => {
  const list = parts.filter((p): p is string => p !== null);
  return list.length ? ` FILTER (WHERE ${list.join(' AND ')})` : '';
};

type Of<K extends EvaluatorKind> = Extract<QuestEvaluator, { kind: K }>;

/** Each kind of the registry as SQL over its source (a kind without SQL fails the typecheck). */
const SQL: { [K in EvaluatorKind]: (ev: Of<K>) => EvaluatorSql } = {
  bets_placed: (ev) => chainAggregate('bet_result_event', 'player', (p) => `count(*)${filter([coinIs(ev.coinType, p)])}`),
  bets_won: (ev) => chainAggregate('bet_result_event', 'player', (p) => `count(*)${filter(['e.won', coinIs(ev.coinType, p)])}`),
  wagered: (ev) => chainAggregate('bet_result_event', 'player', (p) => `coalesce(sum(e.stake)${filter([coinIs(ev.coinType, p)])}, 0)`),
  daily_streak_claims: () => chainAggregate('daily_streak_claimed_event', 'player', () => 'count(*)'),
  vip_level: () => chainAggregate('vip_exp_progress_event', 'player', () => 'coalesce(max(e.vip_level), 0)'),
  referrals: () => chainAggregate('referral_reward_event', 'referrer', () => 'count(DISTINCT e.referee)'),
  login_streak: () => loginStreak,
};

const evaluatorSql = <K extends EvaluatorKind>(ev: Of<K>): EvaluatorSql => (SQL[ev.kind] as (ev: Of<K>) => EvaluatorSql)(ev);

/** What moves an evaluator's progress. */
export const sourceOf = (ev: QuestEvaluator): EvaluatorSource => evaluatorSql(ev).source;

/** The player a decoded chain event counts for (null for an event the evaluator does not read). */
export function playerOf(ev: QuestEvaluator, data: unknown): string | null {
  const column = evaluatorSql(ev).playerColumn;
  const value = column ? (data as Record<string, unknown> | null)?.[column] : undefined;
  return typeof value === 'string' ? value : null;
}

/**
 * Progress per key row: `keys` is a relation with columns (player, period_start, period_end);
 * the result adds `progress` (numeric). Each key is one index range scan on (player, time).
 */
export function progressOfKeys(ev: QuestEvaluator, keys: string, params: unknown[]): string {
  const param: Param = (v) => `$${params.push(v)}`;
  return `SELECT k.*, ${evaluatorSql(ev).perKey(param)}::numeric AS progress FROM ${keys} k`;
}

/** Progress of every (player, period) that has source rows: the rebuild's truth. Columns: player, period_start, progress. */
export function progressOfAll(ev: QuestEvaluator, period: TimePeriod, params: unknown[]): string {
  const param: Param = (v) => `$${params.push(v)}`;
  return evaluatorSql(ev).all(period, param);
}
