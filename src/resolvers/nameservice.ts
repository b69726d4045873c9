import { Arg, Ctx, Directive, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { cacheControl } from '../graphql/cache-policy';
import { CACHE_HINTS } from '../graphql/response-cache';
import type { GraphqlContext } from '../graphql/context';
import { Authorized } from '../graphql/authorized';
import { walletOf } from '../edge/authorize';
import type { Services } from '../services';
import type { Subname as SubnameRecord, SubnameEligibility as EligibilityRecord, SubnameStatus } from '../services/nameservice';

@ObjectType({ description: "A player's one name-service sub-name" })
class Subname implements SubnameRecord {
  @Field(() => String) wallet!: string;
  @Field(() => String) label!: string;
  @Field(() => String, { description: '<label>.<parentDomain>' }) name!: string;
  @Field(() => String) parentDomain!: string;
  @Field(() => String, { description: 'pending until the chain write ran, then issued (txDigest set) or failed' }) status!: SubnameStatus;
  @Field(() => String, { nullable: true }) txDigest!: string | null;
  @Field(() => String, { description: 'ISO 8601: when it expires on chain' }) expiresAt!: string;
  @Field(() => String, { description: 'ISO 8601' }) claimedAt!: string;
}

@ObjectType()
class SubnameEligibility implements EligibilityRecord {
  @Field(() => Int, { description: 'From the indexed VIP events; 0 without any' }) vipLevel!: number;
  @Field(() => Int) minVipLevel!: number;
  @Field(() => Boolean) eligible!: boolean;
  @Field(() => String, { nullable: true, description: 'Null while sub-names are not configured' }) parentDomain!: string | null;
}

@Resolver()
export class NameserviceResolver {
  constructor(private readonly services: Services) {}

  @Authorized('wallet')
  @Query(() => Subname, { nullable: true, description: "The caller's sub-name, null before a claim (needs the access token)" })
  mySubname(@Ctx() ctx: GraphqlContext): Promise<Subname | null> {
    return this.services.nameservice.subnameOf(walletOf(ctx));
  }

  @Authorized('wallet')
  @Query(() => SubnameEligibility, { description: "Whether the caller's VIP level allows a sub-name (needs the access token)" })
  @Directive(cacheControl(CACHE_HINTS.walletChainView))
  subnameEligibility(@Ctx() ctx: GraphqlContext): Promise<SubnameEligibility> {
    return this.services.nameservice.eligibility(walletOf(ctx));
  }

  @Authorized('wallet')
  @Mutation(() => Subname, { description: 'Claim the one sub-name <label>.<parentDomain> of this wallet; it is issued on chain afterwards' })
  claimSubname(@Ctx() ctx: GraphqlContext, @Arg('label', () => String) label: string): Promise<Subname> {
    return this.services.nameservice.claim(walletOf(ctx), { label });
  }
}
