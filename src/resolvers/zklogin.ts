import { Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import { Authorized } from '../graphql/authorized';
import { walletOf } from '../edge/authorize';
import type { Services } from '../services';
import type { ZkLoginIdentityView } from '../services/auth';

@ObjectType({ description: 'A zkLogin identity (the claims of a verified ID token) behind a wallet; the salt is never exposed' })
class ZkLoginIdentity implements ZkLoginIdentityView {
  @Field(() => String, { description: 'OpenID issuer (iss)' }) issuer!: string;
  @Field(() => String, { description: 'Client ID the ID token was issued to (aud)' }) audience!: string;
  @Field(() => String, { description: 'Account at the issuer (sub)' }) subject!: string;
  @Field(() => String, { nullable: true, description: 'Verified email from the ID token' }) email!: string | null;
  @Field(() => Date, { description: 'First zkLogin of this identity' }) createdAt!: Date;
  @Field(() => Date, { nullable: true }) lastLoginAt!: Date | null;
}

@Resolver()
export class ZkLoginResolver {
  constructor(private readonly services: Services) {}

  @Authorized('wallet')
  @Query(() => [ZkLoginIdentity], { description: "The zkLogin identities behind the caller's wallet (needs the access token)" })
  zkLoginIdentities(@Ctx() ctx: GraphqlContext): Promise<ZkLoginIdentityView[]> {
    return this.services.zklogin.identities(walletOf(ctx));
  }
}
