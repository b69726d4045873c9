import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import type { Services } from '../services';
import type { SessionToken as SessionTokenView, SignedUrl as SignedUrlView } from '../services/onramps';

@ObjectType()
class OnrampSignedUrl implements SignedUrlView {
  @Field(() => String, { description: 'The widget URL with `&signature=…` appended last' }) url!: string;
  @Field(() => String, { description: 'base64(HMAC-SHA256(secret, query string as sent))' }) signature!: string;
}

@ObjectType()
class OnrampSessionToken implements SessionTokenView {
  @Field(() => String, { description: "On-ramp B's single-use token" }) sessionToken!: string;
  @Field(() => String, { description: 'base64url(SHA-256(lower-cased address + "platform-cdp")), 40 characters' }) partnerUserRef!: string;
  @Field(() => Int) expiresInSeconds!: number;
}

// The fields are nullable in the schema on purpose: the service names every missing or malformed
// one (VALIDATION_FAILED with details.issues), exactly as the REST route does.
@InputType({ description: 'All three are required' })
class OnrampSessionTokenInput {
  @Field(() => String, { nullable: true, description: '0x + 40 or 64 hex digits' }) hexAddress?: string;
  @Field(() => [String], { nullable: true, description: 'Networks for the address, e.g. ["sui"]' }) blockchains?: string[];
  @Field(() => [String], { nullable: true, description: 'Asset symbols or IDs, e.g. ["SUI", "USDC"]' }) assets?: string[];
}

const given = (input: object) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== null));

@Resolver()
export class OnrampsResolver {
  constructor(private readonly services: Services) {}

  @Query(() => OnrampSignedUrl, { description: "On-ramp A's widget URL, signed" })
  onrampASignedUrl(@Arg('url', () => String) url: string): OnrampSignedUrl {
    return this.services.onramps.signUrl({ url });
  }

  @Mutation(() => OnrampSessionToken, { description: 'A single-use on-ramp B session token (5 minutes) plus the partnerUserRef' })
  onrampBSessionToken(@Arg('input', () => OnrampSessionTokenInput) input: OnrampSessionTokenInput, @Ctx() ctx: GraphqlContext): Promise<OnrampSessionToken> {
    return this.services.onramps.sessionToken(given(input), { clientIp: ctx.ip, signal: ctx.signal });
  }
}
