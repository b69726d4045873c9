import { z } from 'zod';
import { PRICE_ASSETS, type PriceAsset } from '../../providers/price-source';
import { named } from '../model-names';

/** The prices domain's answers: the REST reply schema, the OpenAPI entry and the GraphQL types come from these. */

export const priceSymbol = named('PriceSymbol', z.enum(Object.keys(PRICE_ASSETS) as [PriceAsset, ...PriceAsset[]]).describe('The asset priced'));

export const assetPriceModel = named(
  'AssetPrice',
  z
    .object({
      symbol: priceSymbol,
      usd: z
        .string()
        .regex(/^\d+(\.\d+)?$/)
        .describe('USD per unit, decimal string'),
    })
    .describe('One asset in USD'),
);
export type AssetPrice = z.infer<typeof assetPriceModel>;

export const pricesModel = named(
  'Prices',
  z
    .object({
      native: assetPriceModel.describe("The chain's native asset (SUI)"),
      stablecoin: assetPriceModel.describe('A USD stablecoin (USDC)'),
      updatedAt: z.iso.datetime().describe('Time of the last good poll (ISO 8601)'),
      ageSeconds: z.int().min(0),
      stale: z.boolean().describe('Older than two poll intervals (PRICES.STALE_AFTER_SECONDS): the source has been failing'),
      source: z.string(),
      lastFailedPollAt: z.iso.datetime().nullable().describe('A failed poll after the last good one'),
    })
    .describe('USD prices from the last good poll of the price source'),
);
export type PricesView = z.infer<typeof pricesModel>;
