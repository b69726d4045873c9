import { Arg, Ctx, Field, FieldResolver, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import { Authorized } from '../graphql/authorized';
import { walletOf } from '../edge/authorize';
import type { Services } from '../services';
import { oauthProvider, socialProvider, type SocialProviderName } from '../services/users';
import { modelEnum, spelledOut } from './model-enum';
import { Profile } from './users';

/** CHAT_PLATFORM, MESSAGING_PLATFORM, SOCIAL_NETWORK: the model's provider names in upper case. */
const SocialProvider = modelEnum(socialProvider, { name: 'SocialProvider', description: 'A social platform an account can be linked from' });

@ObjectType({ description: 'A social account linked to the profile' })
class SocialLink {
  @Field(() => SocialProvider) provider!: SocialProviderName;
  @Field(() => String, { description: "The account's id at the provider" }) externalId!: string;
  @Field(() => String, { nullable: true }) username!: string | null;
  @Field(() => Date) linkedAt!: Date;
}

@ObjectType({ description: 'Where to send the browser to authorize the link' })
class SocialAuthorization {
  @Field(() => String, { description: 'The provider returns the browser to /api/users/social/{provider}/callback' }) authorizationUrl!: string;
}

@InputType({ description: "The messaging platform login widget's signed payload (its fields in camelCase)" })
class MessagingLoginInput {
  @Field(() => String, { description: 'The account id (a decimal string: it can exceed 32 bits)' }) id!: string;
  @Field(() => Int, { description: 'Unix seconds of the login' }) authDate!: number;
  @Field(() => String, { description: 'Hex HMAC-SHA256 the platform signed the other fields with' }) hash!: string;
  @Field(() => String, { nullable: true }) firstName?: string | null;
  @Field(() => String, { nullable: true }) lastName?: string | null;
  @Field(() => String, { nullable: true }) username?: string | null;
  @Field(() => String, { nullable: true }) photoUrl?: string | null;
}

/** The widget's own field names, which its signature covers; absent fields stay absent. */
const widgetFields = (p: MessagingLoginInput): Record<string, string | number> =>
  Object.fromEntries(
    Object.entries({ id: p.id, auth_date: p.authDate, hash: p.hash, first_name: p.firstName, last_name: p.lastName, username: p.username, photo_url: p.photoUrl }).filter(
      ([, v]) => v !== null && v !== undefined,
    ),
  ) as Record<string, string | number>;

@Resolver(() => Profile)
export class SocialLinksResolver {
  constructor(private readonly services: Services) {}

  @Authorized('wallet')
  @Query(() => [SocialLink], { description: "The caller's linked social accounts" })
  socialLinks(@Ctx() ctx: GraphqlContext): Promise<SocialLink[]> {
    return this.services.socialLinks.list(walletOf(ctx));
  }

  @FieldResolver(() => [SocialLink], { name: 'socialLinks', description: "The profile's linked social accounts" })
  socialLinksOfProfile(@Root() profile: Profile): Promise<SocialLink[]> {
    return this.services.socialLinks.list(profile.walletAddress);
  }

  @Authorized('wallet')
  @Mutation(() => SocialAuthorization, { description: `Start linking an OAuth provider (${spelledOut(oauthProvider, { asEnum: true })}); state single use, 10 minutes` })
  connectSocial(@Arg('provider', () => SocialProvider) provider: SocialProviderName, @Ctx() ctx: GraphqlContext): Promise<SocialAuthorization> {
    return this.services.socialLinks.connect(walletOf(ctx), provider);
  }

  @Authorized('wallet')
  @Mutation(() => SocialLink, { description: "Link the messaging platform with its login widget's signed payload" })
  linkMessagingPlatform(@Arg('payload', () => MessagingLoginInput) payload: MessagingLoginInput, @Ctx() ctx: GraphqlContext): Promise<SocialLink> {
    return this.services.socialLinks.linkMessagingPlatform(walletOf(ctx), widgetFields(payload));
  }

  @Authorized('wallet')
  @Mutation(() => Boolean, { description: 'Unlink a provider (idempotent: true also when it was not linked)' })
  async disconnectSocial(@Arg('provider', () => SocialProvider) provider: SocialProviderName, @Ctx() ctx: GraphqlContext): Promise<boolean> {
    await this.services.socialLinks.disconnect(walletOf(ctx), provider);
    return true;
  }
}
