import { Arg, Ctx, Field, Int, Mutation, ObjectType, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import { Authorized } from '../graphql/authorized';
import { walletOf } from '../edge/authorize';
import type { Services } from '../services';

@ObjectType({ description: 'A single-use login challenge' })
class AuthChallenge {
  @Field(() => String) nonce!: string;
  @Field(() => String, { description: 'The exact text the wallet signs (signPersonalMessage)' }) message!: string;
  @Field(() => Date) expiresAt!: Date;
}

@ObjectType({ description: 'An access token and the refresh token that renews it' })
class AuthTokens {
  @Field(() => String, { description: 'HS256 JWT; send as `Authorization: Bearer <accessToken>`' }) accessToken!: string;
  @Field(() => String, { description: 'Opaque and single use: pass it to refreshTokens for a new pair' }) refreshToken!: string;
  @Field(() => String) tokenType!: string;
  @Field(() => Int, { description: 'Access token lifetime in seconds' }) expiresIn!: number;
}

@ObjectType()
class ZkLoginTokens extends AuthTokens {
  @Field(() => String, { description: 'The zkLogin Sui address' }) address!: string;
}

const meta = (ctx: GraphqlContext) => ({ ip: ctx.ip });

@Resolver()
export class AuthResolver {
  constructor(private readonly services: Services) {}

  @Mutation(() => AuthChallenge, { description: 'A message for the wallet to sign; single use, expires in 5 minutes' })
  authChallenge(@Arg('address', () => String) address: string, @Ctx() ctx: GraphqlContext): Promise<AuthChallenge> {
    return this.services.auth.challenge({ address }, { ip: ctx.ip });
  }

  @Mutation(() => AuthTokens, { description: 'Log in with a signed challenge (base64 serialized Sui signature)' })
  login(
    @Arg('address', () => String) address: string,
    @Arg('message', () => String) message: string,
    @Arg('signature', () => String) signature: string,
    @Ctx() ctx: GraphqlContext,
  ): Promise<AuthTokens> {
    return this.services.auth.login({ address, message, signature }, meta(ctx));
  }

  @Mutation(() => ZkLoginTokens, { description: 'Log in with an identity-provider ID token (zkLogin)' })
  zkLogin(@Arg('idToken', () => String) idToken: string, @Ctx() ctx: GraphqlContext): Promise<ZkLoginTokens> {
    return this.services.auth.zkLogin({ idToken }, meta(ctx));
  }

  @Mutation(() => AuthTokens, { description: 'A new token pair; the refresh token passed is spent (reusing it revokes its login)' })
  refreshTokens(@Arg('refreshToken', () => String) refreshToken: string, @Ctx() ctx: GraphqlContext): Promise<AuthTokens> {
    return this.services.auth.refresh({ refreshToken }, meta(ctx));
  }

  @Authorized('wallet')
  @Mutation(() => Boolean, { description: 'Revoke the login of this refresh token (needs the access token)' })
  async logout(@Arg('refreshToken', () => String) refreshToken: string, @Ctx() ctx: GraphqlContext): Promise<boolean> {
    await this.services.auth.logout(walletOf(ctx), { refreshToken });
    return true;
  }
}
