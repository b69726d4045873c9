import { z } from 'zod';
import type { SocialOAuthConfig } from '../config';
import { createOAuthClient, oauthAccountProvider, type OAuthAccountProvider } from './oauth';

/** The chat platform's current-user object (`GET /users/@me`): a snowflake id and a handle. */
const chatUser = z.object({ id: z.string().min(1).max(64), username: z.string().max(100).nullish() });

/** `chat_platform`: OAuth 2.0 authorization code with state and PKCE, then its current-user endpoint. */
export function createChatPlatformProvider(config: SocialOAuthConfig): OAuthAccountProvider {
  return oauthAccountProvider(createOAuthClient(config), config.userinfoUrl, (body) => {
    const user = chatUser.safeParse(body);
    return user.success ? { externalId: user.data.id, username: user.data.username ?? null } : null;
  });
}
