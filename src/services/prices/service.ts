import { Counter, type Registry } from 'prom-client';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import type { Logger } from '../../observability/logger';
import { PRICE_ASSETS, type PriceAsset, type PriceSource, type UsdPrices } from '../../providers/price-source';
import type { SharedStore } from '../../store';
import type { PricesView } from './model';

export type { AssetPrice, PricesView } from './model';

export interface PollOutcome {
  prices: UsdPrices;
  fetchedAt: string;
}

export interface PriceService {
  /** The last good prices from the shared store (or the newest snapshots); never calls the source. */
  current(): Promise<PricesView>;
  /** Fetches from the source and stores the result (store + `price_snapshot`); a failure is recorded and rethrown. */
  poll(opts?: { signal?: AbortSignal }): Promise<PollOutcome>;
  /** False without CHAIN.PRICE_API_KEY: nothing to poll. */
  readonly configured: boolean;
}

interface StoredPrices {
  prices: UsdPrices;
  fetchedAt: string;
  source: string;
}

const LATEST_KEY = 'prices:latest';
const FAILURE_KEY = 'prices:last-failure';
/** The poller's copy lives long; a copy read back from the database only briefly (memory stores are per process). */
const LATEST_TTL_MS = 30 * 24 * 3600_000;
const FROM_DB_TTL_MS = 30_000;

const NATIVE: PriceAsset = 'SUI';
const STABLECOIN: PriceAsset = 'USDC';

export function createPriceService(deps: {
  db: Db;
  store: SharedStore;
  logger: Logger;
  source: PriceSource | null;
  staleAfterSeconds: number;
  registry?: Registry;
  now?: () => Date;
  /** Called after a poll changed what `current()` answers (cached responses of prices are then dropped). */
  onChange?: () => Promise<void>;
}): PriceService {
  const { db, store, source } = deps;
  const now = deps.now ?? (() => new Date());
  const logger = deps.logger.child({ component: 'prices' });
  const polls = new Counter({ name: 'price_polls_total', help: 'Price source polls by outcome (ok, failed)', labelNames: ['outcome'], registers: deps.registry ? [deps.registry] : [] });

  async function fromDatabase(): Promise<StoredPrices | null> {
    const rows = await db.prisma.priceSnapshot.findMany({ where: { asset: { in: Object.keys(PRICE_ASSETS) } }, orderBy: { fetchedAt: 'desc' }, take: 2 * Object.keys(PRICE_ASSETS).length });
    const prices: Partial<UsdPrices> = {};
    let fetchedAt: Date | null = null;
    let sourceName = '';
    for (const row of rows) {
      const asset = row.asset as PriceAsset;
      if (prices[asset] !== undefined) continue;
      prices[asset] = row.usdPrice.toFixed();
      if (!fetchedAt || row.fetchedAt < fetchedAt) [fetchedAt, sourceName] = [row.fetchedAt, row.source];
    }
    if (!fetchedAt || Object.keys(PRICE_ASSETS).some((a) => prices[a as PriceAsset] === undefined)) return null;
    return { prices: prices as UsdPrices, fetchedAt: fetchedAt.toISOString(), source: sourceName };
  }

  async function latest(): Promise<StoredPrices | null> {
    const cached = await store.get(LATEST_KEY);
    if (cached) return JSON.parse(cached) as StoredPrices;
    const stored = await fromDatabase();
    if (stored) await store.set(LATEST_KEY, JSON.stringify(stored), FROM_DB_TTL_MS);
    return stored;
  }

  return {
    configured: source !== null,

    async current() {
      const [stored, failedAt] = await Promise.all([latest(), store.get(FAILURE_KEY)]);
      if (!stored && !source) throw new AppError('SERVICE_UNAVAILABLE', 'Prices are not configured: set CHAIN.PRICE_API_KEY (CHAIN_PRICE_API_KEY) to fetch them', { reason: 'not_configured' });
      if (!stored) throw new AppError('SERVICE_UNAVAILABLE', 'No price has been fetched yet; try again shortly', { reason: 'no_poll_yet' });
      const ageSeconds = Math.max(0, Math.floor((now().getTime() - Date.parse(stored.fetchedAt)) / 1000));
      return {
        native: { symbol: NATIVE, usd: stored.prices[NATIVE] },
        stablecoin: { symbol: STABLECOIN, usd: stored.prices[STABLECOIN] },
        updatedAt: stored.fetchedAt,
        ageSeconds,
        stale: ageSeconds > deps.staleAfterSeconds,
        source: stored.source,
        lastFailedPollAt: failedAt && failedAt > stored.fetchedAt ? failedAt : null,
      };
    },

    async poll(opts = {}) {
      if (!source) throw new AppError('SERVICE_UNAVAILABLE', 'The price source is not configured (CHAIN.PRICE_API_KEY)');
      let prices: UsdPrices;
      try {
        prices = await source.fetchUsdPrices(opts);
      } catch (err) {
        polls.inc({ outcome: 'failed' });
        await store.set(FAILURE_KEY, now().toISOString(), LATEST_TTL_MS).catch(() => undefined);
        await deps.onChange?.();
        logger.warn({ err }, 'price poll failed; the last good prices stay in service');
        throw err;
      }
      const fetchedAt = now();
      await db.prisma.priceSnapshot.createMany({
        data: (Object.keys(prices) as PriceAsset[]).map((asset) => ({ asset, usdPrice: prices[asset], source: source.name, fetchedAt })),
      });
      const stored: StoredPrices = { prices, fetchedAt: fetchedAt.toISOString(), source: source.name };
      await store.set(LATEST_KEY, JSON.stringify(stored), LATEST_TTL_MS);
      await deps.onChange?.();
      polls.inc({ outcome: 'ok' });
      logger.debug({ prices }, 'prices polled');
      return { prices, fetchedAt: stored.fetchedAt };
    },
  };
}
