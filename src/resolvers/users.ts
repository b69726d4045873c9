import { Arg, Ctx, Field, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import { Authorized } from '../graphql/authorized';
import { walletOf } from '../edge/authorize';
import type { Services } from '../services';
import type { ProfileView, PublicProfile } from '../services/users';

/**
 * The caller's profile. Exported as the extension point of other profile parts: social links add
 * their field with `@Resolver(() => Profile)` + `@FieldResolver` in resolvers/social-links.ts.
 */
@ObjectType({ description: "A wallet's profile (one per wallet, created on first use)" })
export class Profile implements ProfileView {
  @Field(() => String, { description: 'Sui address (0x + 64 hex digits)' }) walletAddress!: string;
  @Field(() => String, { nullable: true }) displayName!: string | null;
  @Field(() => String, { nullable: true }) avatarUrl!: string | null;
  @Field(() => String, { nullable: true }) bio!: string | null;
  @Field(() => String, { nullable: true, description: 'The verified address; null until one is verified' }) email!: string | null;
  @Field(() => Boolean) emailVerified!: boolean;
  @Field(() => String, { nullable: true, description: 'ISO 8601' }) emailVerifiedAt!: string | null;
  @Field(() => String, { description: 'ISO 8601' }) createdAt!: string;
  @Field(() => String, { description: 'ISO 8601' }) updatedAt!: string;
}

/** The public part of a wallet's profile, shown beside leaderboard rows and bets (no email, no bio). */
@ObjectType({ description: "The public part of a wallet's profile", simpleResolvers: true })
export class PlayerProfile implements PublicProfile {
  @Field(() => String) walletAddress!: string;
  @Field(() => String, { nullable: true }) displayName!: string | null;
  @Field(() => String, { nullable: true }) avatarUrl!: string | null;
}

@InputType({ description: 'Only the given fields change; null clears a field' })
class UpdateProfileInput {
  @Field(() => String, { nullable: true, description: '1–32 characters after trimming, no control characters' }) displayName?: string | null;
  @Field(() => String, { nullable: true, description: 'Absolute https URL, at most 2048 characters' }) avatarUrl?: string | null;
  @Field(() => String, { nullable: true, description: 'At most 280 characters; "" clears it too' }) bio?: string | null;
}

@ObjectType()
class EmailVerificationStarted {
  @Field(() => String, { description: 'The address the link was sent to (lower case)' }) email!: string;
  @Field(() => String, { description: 'ISO 8601: when the link stops working' }) expiresAt!: string;
}

@ObjectType()
class EmailVerified {
  @Field(() => String) email!: string;
  @Field(() => String, { description: 'ISO 8601' }) emailVerifiedAt!: string;
}

/** Fields the client did not send stay undefined, so only the sent ones change. */
const sentFields = (input: UpdateProfileInput): Record<string, unknown> =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));

@Resolver()
export class UsersResolver {
  constructor(private readonly services: Services) {}

  @Authorized('wallet')
  @Query(() => Profile, { description: "The caller's profile (needs the access token)" })
  me(@Ctx() ctx: GraphqlContext): Promise<Profile> {
    return this.services.users.me(walletOf(ctx));
  }

  @Authorized('wallet')
  @Mutation(() => Profile, { description: "Change the caller's profile" })
  updateProfile(@Arg('input', () => UpdateProfileInput) input: UpdateProfileInput, @Ctx() ctx: GraphqlContext): Promise<Profile> {
    return this.services.users.updateProfile(walletOf(ctx), sentFields(input));
  }

  @Authorized('wallet')
  @Mutation(() => EmailVerificationStarted, { description: 'Mail a single-use verification link to an address (at most 5 per hour)' })
  startEmailVerification(@Arg('email', () => String) email: string, @Ctx() ctx: GraphqlContext): Promise<EmailVerificationStarted> {
    return this.services.users.startEmailVerification(walletOf(ctx), { email });
  }

  @Mutation(() => EmailVerified, { description: 'Verify an address with the token from the mailed link (no access token needed)' })
  verifyEmail(@Arg('token', () => String) token: string): Promise<EmailVerified> {
    return this.services.users.verifyEmail({ token });
  }
}
