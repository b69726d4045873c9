import { z } from 'zod';
import type { SocialOAuthConfig } from '../config';
import { createOAuthClient, oauthAccountProvider, type OAuthAccountProvider } from './oauth';

/** The social network's `GET /2/users/me` answer: the account under `data`. */
const networkMe = z.object({ data: z.object({ id: z.string().min(1).max(64), username: z.string().max(100).nullish() }) });

/** `social_network`: OAuth 2.0 authorization code with state and PKCE, then its `users/me` endpoint. */
export function createSocialNetworkProvider(config: SocialOAuthConfig): OAuthAccountProvider {
  return oauthAccountProvider(createOAuthClient(config), config.userinfoUrl, (body) => {
    const me = networkMe.safeParse(body);
    return me.success ? { externalId: me.data.data.id, username: me.data.data.username ?? null } : null;
  });
}
