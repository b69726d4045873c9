import { z } from 'zod';

/** A social platform an account can be linked from. */
export const socialProvider = z.enum(['chat_platform', 'messaging_platform', 'social_network']);
export type SocialProviderName = z.infer<typeof socialProvider>;
/** Providers linked through an OAuth redirect; `messaging_platform` links with a signed payload instead. */
export const oauthProvider = socialProvider.extract(['chat_platform', 'social_network']);
export type OAuthProviderName = z.infer<typeof oauthProvider>;

export const SOCIAL_PROVIDERS = socialProvider.options;
export const OAUTH_PROVIDERS = oauthProvider.options;
