import { Directive, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { cacheControl } from '../graphql/cache-policy';
import { CACHE_HINTS } from '../graphql/response-cache';
import type { Services } from '../services';
import type { PricesView } from '../services/prices';

@ObjectType({ description: 'One asset in USD' })
class AssetPrice {
  @Field(() => String) symbol!: string;
  @Field(() => String, { description: 'USD per unit, decimal string' }) usd!: string;
}

@ObjectType({ description: 'USD prices from the last good poll of the price source' })
class Prices {
  @Field(() => AssetPrice, { description: "The chain's native asset (SUI)" }) native!: AssetPrice;
  @Field(() => AssetPrice, { description: 'A USD stablecoin (USDC)' }) stablecoin!: AssetPrice;
  @Field(() => String, { description: 'Time of the last good poll (ISO 8601)' }) updatedAt!: string;
  @Field(() => Int) ageSeconds!: number;
  @Field(() => Boolean, { description: 'Older than two poll intervals: the source has been failing' }) stale!: boolean;
  @Field(() => String) source!: string;
  @Field(() => String, { nullable: true, description: 'A failed poll after the last good one' }) lastFailedPollAt!: string | null;
}

@Resolver()
export class PricesResolver {
  constructor(private readonly services: Services) {}

  @Query(() => Prices, { description: 'Cached USD prices (never fetched on request); SERVICE_UNAVAILABLE before the first poll' })
  @Directive(cacheControl(CACHE_HINTS.prices))
  prices(): Promise<PricesView> {
    return this.services.prices.current();
  }
}
