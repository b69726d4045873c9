import { AppError } from '../errors';

/** The assets we quote, by our symbol, and their ids at the price source. */
export const PRICE_ASSETS = { SUI: 'sui', USDC: 'usd-coin' } as const;
export type PriceAsset = keyof typeof PRICE_ASSETS;

/** USD prices as decimal strings, exactly as the source wrote them. */
export type UsdPrices = Record<PriceAsset, string>;

export interface PriceSource {
  /** The source's name, stored with each snapshot. */
  readonly name: string;
  /** Current USD prices of every asset; UPSTREAM_UNAVAILABLE when the source cannot answer fully. */
  fetchUsdPrices(opts?: { signal?: AbortSignal }): Promise<UsdPrices>;
}

export interface PriceSourceOptions {
  /** Base URL (CoinGecko pro: https://pro-api.coingecko.com). */
  url: string;
  /** CHAIN.PRICE_API_KEY, sent as `x-cg-pro-api-key`. */
  apiKey: string;
  /** Per request. Default 5 s. */
  timeoutMs?: number;
}

const DECIMAL = /^\d+(\.\d+)?([eE][-+]?\d+)?$/;

const unavailable = (message: string, details?: Record<string, unknown>, cause?: unknown) =>
  new AppError('UPSTREAM_UNAVAILABLE', `The price source ${message}`, details, { cause });

/** JSON.parse keeping each number's source text (V8's JSON.parse source access), so no digit is lost to a double. */
function parseKeepingNumberText(text: string): unknown {
  const reviver = (_key: string, value: unknown, context?: { source?: string }) => (typeof value === 'number' && context?.source ? context.source : value);
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
}

/** "1.5e-7" → "0.00000015": decimals as PostgreSQL and clients read them. */
function plainDecimal(text: string): string {
  if (!/[eE]/.test(text)) return text;
  const n = Number(text);
  return n.toFixed(Math.min(18, Math.max(0, -Math.floor(Math.log10(n)) + 8))).replace(/\.?0+$/, '');
}

/**
 * The one adapter for the price source, in CoinGecko's wire format:
 * `GET /api/v3/simple/price?ids=sui,usd-coin&vs_currencies=usd` with header `x-cg-pro-api-key`
 * answers `{ "sui": { "usd": 3.41 }, "usd-coin": { "usd": 0.9998 } }`. The key never appears in errors.
 */
export function createPriceSource(opts: PriceSourceOptions): PriceSource {
  const ids = Object.values(PRICE_ASSETS).join(',');
  const endpoint = `${opts.url.replace(/\/$/, '')}/api/v3/simple/price?ids=${encodeURIComponent(ids)}&vs_currencies=usd`;
  const timeoutMs = opts.timeoutMs ?? 5000;
  return {
    name: 'coingecko',
    async fetchUsdPrices({ signal } = {}) {
      const timeout = AbortSignal.timeout(timeoutMs);
      let res: Response;
      let text: string;
      try {
        res = await fetch(endpoint, { headers: { 'x-cg-pro-api-key': opts.apiKey, accept: 'application/json' }, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
        text = await res.text();
      } catch (err) {
        throw unavailable(timeout.aborted ? `did not answer within ${timeoutMs} ms` : 'could not be reached', undefined, err);
      }
      if (!res.ok) throw unavailable(`answered HTTP ${res.status}`, { status: res.status });
      let body: Record<string, { usd?: unknown } | undefined>;
      try {
        body = parseKeepingNumberText(text) as typeof body;
      } catch (err) {
        throw unavailable('sent a body that is not JSON', undefined, err);
      }
      const prices = {} as UsdPrices;
      for (const [asset, id] of Object.entries(PRICE_ASSETS) as [PriceAsset, string][]) {
        const usd = body?.[id]?.usd;
        if (typeof usd !== 'string' || !DECIMAL.test(usd) || Number(usd) <= 0) throw unavailable(`sent no valid USD price for ${id}`, { asset });
        prices[asset] = plainDecimal(usd);
      }
      return prices;
    },
  };
}
