import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { createEventSource, type Transport } from '../../src/indexer/sources/index.js';
import { EVENT_KINDS, KIND_LIST, eventTypeOf, type AnyEventKind, type EventKind, type KindKey } from '../../src/indexer/kinds.js';
import { followKind } from '../../src/indexer/follow.js';
import { createEventStore, CursorConflictError, type EventStore } from '../../src/indexer/store.js';

let chain: SuiChainFixture;
let t: TestDb;
let store: EventStore;

beforeAll(async () => {
  chain = await startSuiChainFixture({
    seed: 11,
    events: 1500,
    startTimestampMs: Date.UTC(2026, 0, 9, 12), // a Friday, so the bets span more than one UTC week
    graphql: { shortPageProbability: 0.3 },
    grpc: { shortPageProbability: 0.3 },
  });
  t = await createTestDb();
  store = createEventStore({ db: t.db });
});
afterAll(async () => {
  await chain?.close();
  await t?.cleanup();
});

const sourceFor = (transport: Transport) => createEventSource({ transport, url: transport === 'graphql' ? chain.graphqlUrl : chain.grpcUrl });
const expected = (kind: AnyEventKind) => chain.eventsOfType(eventTypeOf(kind, chain.packageId));
const count = async (table: string) => Number((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n);

/** Follows every kind into the store until each table holds all of the chain's events of its kind. */
async function indexAll(transport: Transport): Promise<void> {
  const controller = new AbortController();
  const caughtUp = new Set<string>();
  const runs = KIND_LIST.map(async (kind) => {
    const source = sourceFor(transport);
    const done = followKind({
      source,
      kind: kind as EventKind<KindKey, never>,
      onCaughtUp: () => void caughtUp.add(kind.key),
      packageId: chain.packageId,
      startCursor: await store.resumeCursor(kind.key, transport),
      pageSize: 40,
      pollIntervalMs: 20,
      signal: controller.signal,
      onBatch: (batch) => store.writeBatch(batch as never, transport).then(() => undefined),
    });
    return done;
  });
  const deadline = Date.now() + 25_000;
  for (;;) {
    const counts = await Promise.all(KIND_LIST.map((k) => count(k.key)));
    const done = KIND_LIST.every((k, i) => counts[i] >= expected(k).length && caughtUp.has(k.key));
    if (done || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  controller.abort();
  await Promise.all(runs);
}

type Totals = Map<string, { wagered: bigint; payout: bigint; bets: number; wins: number }>;

function betTotals(byWeek: boolean): Totals {
  const out: Totals = new Map();
  for (const e of expected(EVENT_KINDS.bet_result_event)) {
    const d = EVENT_KINDS.bet_result_event.decode(e.json);
    const day = new Date(e.timestampMs);
    const monday = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() - ((day.getUTCDay() + 6) % 7)));
    const key = `${byWeek ? monday.toISOString().slice(0, 10) + '|' : ''}${d.player}|${d.coinType}`;
    const acc = out.get(key) ?? { wagered: 0n, payout: 0n, bets: 0, wins: 0 };
    acc.wagered += d.stake;
    acc.payout += d.payout;
    acc.bets++;
    acc.wins += d.won ? 1 : 0;
    out.set(key, acc);
  }
  return out;
}

async function leaderboardSnapshot(): Promise<string> {
  const tables = ['bet_leaderboard', 'weekly_bet_leaderboard', 'xp_leaderboard', 'referral_leaderboard'];
  const parts = await Promise.all(
    tables.map(async (table) => JSON.stringify(await t.db.query(`SELECT row_to_json(x)::text AS r FROM (SELECT * FROM ${table}) x ORDER BY 1`))),
  );
  return parts.join('\n').replace(/"updated_at":"[^"]*"/g, '');
}

describe('indexer store', () => {
  it('indexes every kind over gRPC: rows, cursors and leaderboards', async () => {
    await indexAll('grpc');
    for (const kind of KIND_LIST) {
      expect(await count(kind.key), kind.key).toBe(expected(kind).length);
      const stored = await store.loadCursor(kind.key);
      expect(stored?.transport).toBe('grpc');
      expect(stored?.eventsIndexed).toBe(BigInt(expected(kind).length));
    }

    // Every event's chain time, to the millisecond (sent as epoch milliseconds, stored as timestamptz).
    for (const kind of KIND_LIST) {
      const times = await t.db.query<{ id: string; ms: string }>(
        `SELECT tx_digest || '#' || event_seq AS id, (extract(epoch FROM timestamp_ms) * 1000)::bigint::text AS ms FROM ${kind.key}`,
      );
      expect(Object.fromEntries(times.map((r) => [r.id, Number(r.ms)])), kind.key).toEqual(
        Object.fromEntries(expected(kind).map((e) => [`${e.txDigest}#${e.eventIndex}`, e.timestampMs])),
      );
    }

    // Giveaways (read by the settlement job): each one's id and end, to the millisecond.
    const giveaways = await t.db.query<{ id: string; ends: string }>(
      'SELECT giveaway_id AS id, (extract(epoch FROM ends_at) * 1000)::bigint::text AS ends FROM giveaway_created_event',
    );
    const wantGiveaways = expected(EVENT_KINDS.giveaway_created_event).map((e) => EVENT_KINDS.giveaway_created_event.decode(e.json));
    expect(wantGiveaways.length).toBeGreaterThan(0);
    expect(Object.fromEntries(giveaways.map((r) => [r.id, r.ends]))).toEqual(Object.fromEntries(wantGiveaways.map((d) => [d.giveawayId, d.endsAtMs.toString()])));

    const bets = await t.db.query<{ player: string; coin_type: string; w: string; p: string; b: number; wins: number }>(
      'SELECT player, coin_type, total_wagered::text AS w, total_payout::text AS p, bet_count AS b, win_count AS wins FROM bet_leaderboard',
    );
    const want = betTotals(false);
    expect(bets.length).toBe(want.size);
    for (const r of bets) {
      const w = want.get(`${r.player}|${r.coin_type}`)!;
      expect([r.w, r.p, Number(r.b), Number(r.wins)]).toEqual([w.wagered.toString(), w.payout.toString(), w.bets, w.wins]);
    }

    const weekly = await t.db.query<{ week: string; player: string; coin_type: string; w: string; b: number }>(
      "SELECT to_char(week_start, 'YYYY-MM-DD') AS week, player, coin_type, total_wagered::text AS w, bet_count AS b FROM weekly_bet_leaderboard",
    );
    const wantWeekly = betTotals(true);
    expect(weekly.length).toBe(wantWeekly.size);
    expect(new Set(weekly.map((r) => r.week)).size).toBeGreaterThan(1); // the chain spans several weeks
    for (const r of weekly) expect(r.w).toBe(wantWeekly.get(`${r.week}|${r.player}|${r.coin_type}`)!.wagered.toString());

    const xp = await t.db.query<{ player: string; total: string }>('SELECT player, total_xp::text AS total FROM xp_leaderboard');
    const maxXp = new Map<string, bigint>();
    for (const e of expected(EVENT_KINDS.vip_exp_progress_event)) {
      const d = EVENT_KINDS.vip_exp_progress_event.decode(e.json);
      if ((maxXp.get(d.player) ?? -1n) < d.totalExp) maxXp.set(d.player, d.totalExp);
    }
    expect(Object.fromEntries(xp.map((r) => [r.player, r.total]))).toEqual(Object.fromEntries([...maxXp].map(([p, v]) => [p, v.toString()])));

    const refs = await t.db.query<{ referrer: string; coin_type: string; total: string; n: number }>(
      'SELECT referrer, coin_type, total_rewards::text AS total, referral_count AS n FROM referral_leaderboard',
    );
    const wantRefs = new Map<string, { total: bigint; referees: Set<string> }>();
    for (const e of expected(EVENT_KINDS.referral_reward_event)) {
      const d = EVENT_KINDS.referral_reward_event.decode(e.json);
      const acc = wantRefs.get(`${d.referrer}|${d.coinType}`) ?? { total: 0n, referees: new Set() };
      acc.total += d.amount;
      acc.referees.add(d.referee);
      wantRefs.set(`${d.referrer}|${d.coinType}`, acc);
    }
    expect(refs.length).toBe(wantRefs.size);
    for (const r of refs) {
      const w = wantRefs.get(`${r.referrer}|${r.coin_type}`)!;
      expect([r.total, Number(r.n)]).toEqual([w.total.toString(), w.referees.size]);
    }
  });

  it('switching transport replays from genesis: no duplicate rows, leaderboards unchanged', async () => {
    const before = await leaderboardSnapshot();
    await indexAll('graphql');
    for (const kind of KIND_LIST) {
      expect(await count(kind.key)).toBe(expected(kind).length);
      expect((await store.loadCursor(kind.key))?.transport).toBe('graphql');
    }
    expect(await leaderboardSnapshot()).toBe(before);
  });

  it('picks up appended events from the stored cursor', async () => {
    chain.append(300);
    await indexAll('graphql');
    for (const kind of KIND_LIST) expect(await count(kind.key), kind.key).toBe(expected(kind).length);
  });

  it('a batch of stored and new rows inserts the new ones only, and the next batch after it as well', async () => {
    const key: KindKey = 'bet_result_event';
    const player = '0x' + '3'.repeat(64);
    const bet = (digest: string, stake: string) => ({
      txDigest: digest.padEnd(44, '3'),
      eventSeq: 0,
      checkpoint: 9n,
      timestampMs: Date.UTC(2026, 0, 6),
      sender: player,
      type: eventTypeOf(EVENT_KINDS[key], chain.packageId),
      data: EVENT_KINDS[key].decode({ player, game_id: '1', coin_type: '0x2::sui::SUI', stake, payout: '0', won: false }),
    });
    const wagered = async () => (await t.db.query<{ w: string | null }>('SELECT sum(total_wagered)::text AS w FROM bet_leaderboard WHERE player = $1', [player]))[0].w;
    const stored = (await store.loadCursor(key))!;
    const first = await store.writeBatch({ kind: key, events: [bet('Mixed1', '5')], cursor: stored.cursor, nextCursor: 'mixed-1' }, stored.transport);
    expect(first.inserted).toBe(1);
    const mixed = await store.writeBatch({ kind: key, events: [bet('Mixed1', '5'), bet('Mixed2', '7')], cursor: 'mixed-1', nextCursor: 'mixed-2' }, stored.transport);
    expect(mixed.inserted).toBe(1);
    const after = await store.writeBatch({ kind: key, events: [bet('Mixed3', '11')], cursor: 'mixed-2', nextCursor: 'mixed-3' }, stored.transport);
    expect(after.inserted).toBe(1);
    expect(await wagered()).toBe('23');
    expect((await store.loadCursor(key))?.eventsIndexed).toBe(stored.eventsIndexed + 3n);
  });

  it('rolls back rows and leaderboards when the cursor guard fails', async () => {
    const key: KindKey = 'bet_result_event';
    const before = await leaderboardSnapshot();
    const rowsBefore = await count(key);
    const fake = {
      txDigest: 'FakeDigest1111111111111111111111111111111111',
      eventSeq: 0,
      checkpoint: 1n,
      timestampMs: Date.UTC(2026, 0, 6),
      sender: '0x' + '1'.repeat(64),
      type: eventTypeOf(EVENT_KINDS[key], chain.packageId),
      data: EVENT_KINDS[key].decode({ player: '0x' + '1'.repeat(64), game_id: '1', coin_type: '0x2::sui::SUI', stake: '5', payout: '0', won: false }),
    };
    await expect(
      store.writeBatch({ kind: key, events: [fake], cursor: 'not-the-stored-cursor', nextCursor: 'x' }, 'graphql'),
    ).rejects.toBeInstanceOf(CursorConflictError);
    expect(await count(key)).toBe(rowsBefore);
    expect(await leaderboardSnapshot()).toBe(before);
  });
});
