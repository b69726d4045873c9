import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import pino from 'pino';
import { Registry } from 'prom-client';
import type { SuiChainFixture } from '../fixtures/sui-chain/index.js';
import type { Db } from '../../src/db/client.js';
import { KIND_LIST, eventTypeOf } from '../../src/indexer/kinds.js';
import { createIndexer, type Indexer, type IndexerDeps } from '../../src/indexer/runner.js';
import { broadcastBetResults } from '../../src/services/activity';
import { createHooks, type Hooks } from '../../src/services/hooks';
import { BUILT_MAIN_ARGS } from './built-main';
import { until } from './until';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function waitUntil(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

/** Events of each kind on the fixture chain right now. */
export function expectedCounts(chain: SuiChainFixture): Record<string, number> {
  return Object.fromEntries(KIND_LIST.map((k) => [k.key, chain.eventsOfType(eventTypeOf(k, chain.packageId)).length]));
}

export async function tableCounts(db: Pick<Db, 'query'>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const k of KIND_LIST) out[k.key] = Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${k.key}`))[0].n);
  return out;
}

/** True once every event table holds every event of its kind on the chain. */
export async function caughtUp(db: Pick<Db, 'query'>, chain: SuiChainFixture): Promise<boolean> {
  const want = expectedCounts(chain);
  const have = await tableCounts(db);
  return KIND_LIST.every((k) => have[k.key] === want[k.key]);
}

const LEADERBOARDS: Record<string, string> = {
  bet_leaderboard: 'player, coin_type, total_wagered::text, total_payout::text, bet_count, win_count',
  weekly_bet_leaderboard: 'week_start::text, player, coin_type, total_wagered::text, total_payout::text, bet_count, win_count',
  xp_leaderboard: 'player, total_xp::text, vip_level',
  referral_leaderboard: 'referrer, coin_type, total_rewards::text, referral_count',
};

/**
 * Everything the indexer writes, in a stable order and without surrogate ids or wall-clock
 * columns: every event table, the four leaderboards, and each kind's cursor position.
 */
export async function indexedState(db: Pick<Db, 'query'>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const dump = async (name: string, sql: string) => {
    out[name] = (await db.query<Record<string, unknown>>(sql)).map((r) => JSON.stringify(Object.values(r)));
  };
  for (const k of KIND_LIST) {
    const cols = await db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND column_name <> 'id' ORDER BY ordinal_position`,
      [k.key],
    );
    const list = cols.map((c) => `${c.column_name}::text`).join(', ');
    await dump(k.key, `SELECT ${list} FROM ${k.key} ORDER BY tx_digest, event_seq`);
  }
  for (const [table, cols] of Object.entries(LEADERBOARDS)) await dump(table, `SELECT ${cols} FROM ${table} ORDER BY 1, 2, 3`);
  await dump('cursor', `SELECT event_kind, transport, last_tx_digest, last_event_seq, last_checkpoint::text, events_indexed::text FROM "cursor" ORDER BY event_kind`);
  return out;
}

export interface InProcessIndexer {
  indexer: Indexer;
  registry: Registry;
  invalidations: () => number;
  published: Array<{ kind: string; player: string; summary: string }>;
}

/** A real indexer in this process against the fixture chain (no leaderboard service: counts invalidations). */
export function inProcessIndexer(db: Db, chain: SuiChainFixture, overrides: Partial<Omit<IndexerDeps, 'hooks'>> & { hooks?: Hooks; transport?: 'graphql' | 'grpc'; pageSize?: number } = {}): InProcessIndexer {
  const registry = new Registry();
  let invalidations = 0;
  const published: InProcessIndexer['published'] = [];
  const transport = overrides.transport ?? 'graphql';
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const hooks = overrides.hooks ?? createHooks(logger);
  broadcastBetResults(hooks, { publish: async (e) => void published.push(e) }, logger);
  const indexer = createIndexer({
    config: {
      packageId: chain.packageId,
      transport,
      suiUrl: transport === 'graphql' ? chain.graphqlUrl : chain.grpcUrl,
      pollingIntervalMs: 50,
      pageSize: overrides.pageSize,
    },
    db,
    logger,
    registry,
    leaderboards: { invalidate: async () => void invalidations++ },
    hooks,
    leaderRetryMs: 200,
    statusIntervalMs: 200,
    tipIntervalMs: 500,
    ...overrides,
  });
  return { indexer, registry, invalidations: () => invalidations, published };
}

export interface IndexerProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves once the process logged that it leads. */
  leading(timeoutMs?: number): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs `src/main.ts --role indexer` (built) as its own OS process (as `npm start -- --role indexer` does). */
export function spawnIndexer(env: Record<string, string>): IndexerProcess {
  const child = spawn(process.execPath, [...BUILT_MAIN_ARGS, '--role', 'indexer'], {
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', CACHE_STORE: 'memory', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  return {
    child,
    output: () => out,
    async leading(timeoutMs = 30_000) {
      await waitUntil(() => {
        if (child.exitCode !== null) throw new Error(`indexer process exited with ${child.exitCode}:\n${out}`);
        return out.includes('"indexer: leading"');
      }, timeoutMs, 'the indexer process to lead');
    },
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await exited;
    },
  };
}

/** Environment that points an indexer process at the fixture chain. */
export function chainEnv(chain: SuiChainFixture, transport: 'graphql' | 'grpc' = 'graphql'): Record<string, string> {
  return {
    'CHAIN.SUI_URL': transport === 'graphql' ? chain.graphqlUrl : chain.grpcUrl,
    'CHAIN.SUI_TRANSPORT': transport,
    PLATFORM_PACKAGE_ID: chain.packageId,
    POLLING_INTERVAL_MS: '50',
  };
}

/** Waits until an indexer (in a container or another process) has counted every event of the chain into the database at `databaseUrl`. */
export async function untilIndexedAt(databaseUrl: string, chain: SuiChainFixture, timeoutMs = 60_000): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const indexed = async () => Number((await client.query<{ n: string }>('SELECT coalesce(sum(events_indexed), 0)::text AS n FROM "cursor"')).rows[0]?.n);
    await until(async () => (await indexed()) === chain.events.length, 'the indexer caught up with the chain', timeoutMs, 200);
  } finally {
    await client.end();
  }
}
