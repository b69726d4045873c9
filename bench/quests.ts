// Quest reads under load: the catalogue list and a 20-check batch status through the API's REST
// routes, each beside a raw Fastify handler doing the same reads (the campaign rows plus the
// catalogue in code; the one stored-progress statement) on the same database.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/db/client';
import { DEFAULT_CATALOGUE, lifecycleOf, periodEndOf, periodStartOf, questWindow } from '../src/services/quest-catalogue';
import { readStored } from '../src/services/quest-progress';
import type { LoadResult } from './load';

const CAMPAIGN = 'platform';
const PLAYERS = 100_000;
const player = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;

/** 100,000 players with today's `daily-bet` progress, written with plain SQL. */
export async function seedQuestProgress(db: Db): Promise<void> {
  await db.query('DELETE FROM quest_progress');
  await db.query(
    `INSERT INTO quest_progress (quest_key, campaign_slug, player_address, time_period, period_start, progress, target, completed_at)
     SELECT 'daily-bet', $1, '0x' || lpad(to_hex(i), 64, '0'), 'daily', $2::timestamptz, 1, 1, now()
       FROM generate_series(1, $3::int) AS i`,
    [CAMPAIGN, periodStartOf('daily', new Date()).toISOString(), PLAYERS],
  );
}

/** 20 checks: `daily-bet` for 20 players spread over the board. */
export const BATCH_BODY = JSON.stringify({ checks: Array.from({ length: 20 }, (_, i) => ({ questKey: 'daily-bet', mode: 'indexed', player: player(1 + i * 4999) })) });

export function questRawRoutes(app: FastifyInstance, db: Db): void {
  const quests = new Map(DEFAULT_CATALOGUE.flatMap((c) => c.quests.map((q) => [q.key, q] as const)));
  app.get('/bench/raw/quests/list', async () => {
    const now = new Date();
    const campaigns = await db.query<{ slug: string; type: string; name: string | null; title: string | null; description: string | null; copy_text: string | null; start_at: Date; end_at: Date; manages_claims: boolean }>(
      'SELECT slug, type, name, title, description, copy_text, start_at, end_at, manages_claims FROM campaign ORDER BY start_at, slug',
    );
    return {
      campaigns: campaigns.map((c) => {
        const row = { startAt: new Date(c.start_at), endAt: new Date(c.end_at) };
        const defs = DEFAULT_CATALOGUE.find((d) => d.campaign.slug === c.slug)?.quests ?? [];
        return {
          slug: c.slug, type: c.type, name: c.name, title: c.title, description: c.description, copyText: c.copy_text,
          startAt: row.startAt.toISOString(), endAt: row.endAt.toISOString(), managesClaims: c.manages_claims,
          quests: defs.map((q) => {
            const window = questWindow(q, row);
            const periodStart = periodStartOf(q.timePeriod, now);
            return {
              key: q.key, title: q.title, description: q.description, xpReward: q.xpReward, timePeriod: q.timePeriod, modes: [...q.modes],
              target: q.target.toString(), lifecycle: lifecycleOf(q, row, now), performanceDaily: q.performanceDaily === true,
              startAt: window.startAt.toISOString(), endAt: window.endAt.toISOString(), periodStart: periodStart.toISOString(),
              periodEnd: periodEndOf(q.timePeriod, periodStart).toISOString(),
            };
          }),
        };
      }),
    };
  });
  app.post<{ Body: { checks: Array<{ questKey: string; player: string }> } }>('/bench/raw/quests/status', async (request) => {
    const now = new Date();
    const checks = request.body.checks.map((c) => {
      const q = quests.get(c.questKey)!;
      return { questKey: q.key, campaignSlug: CAMPAIGN, player: c.player, timePeriod: q.timePeriod, periodStart: periodStartOf(q.timePeriod, now) };
    });
    const stored = await readStored(db, checks);
    return {
      statuses: checks.map((c, i) => {
        const q = quests.get(c.questKey)!;
        const progress = stored[i].progress ?? '0';
        return { questKey: c.questKey, player: c.player, progress, target: q.target.toString(), completed: BigInt(progress) >= q.target, claimed: stored[i].claimedAt !== null };
      }),
    };
  });
}

type Measure = (path: string, body?: string) => Promise<LoadResult>;

export async function benchQuests(measure: Measure, row: (name: string, r: LoadResult, base?: LoadResult) => string): Promise<string[]> {
  const lines: string[] = [];
  const rawList = await measure('/bench/raw/quests/list');
  lines.push(row('quest list: raw Fastify + pg handler', rawList));
  lines.push(row('quest list: GET /api/quests/list', await measure('/api/quests/list'), rawList));
  const rawBatch = await measure('/bench/raw/quests/status', BATCH_BODY);
  lines.push(row('20-check status: raw Fastify + pg handler', rawBatch));
  lines.push(row('20-check status: POST …/quests/…/status', await measure(`/api/quests/campaigns/${CAMPAIGN}/status`, BATCH_BODY), rawBatch));
  return lines;
}
