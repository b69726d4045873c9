import type { FastifyInstance } from 'fastify';
import { isAppError } from '../../errors';
import type { Services } from '../../services';
import { messagingLoginInput, oauthProvider, socialProvider, type OAuthCallbackQuery } from '../../services/users';
import { walletOf } from '../../edge/authorize';
import { documentedBody, judgedByService, modelSchema } from './input-schema';
import { COMMON_ERRORS, errorResponses } from './responses';

const SOCIAL_LINK_ID = 'SocialLink';
const socialLinkSchema = {
  $id: SOCIAL_LINK_ID,
  type: 'object',
  required: ['provider', 'externalId', 'username', 'linkedAt'],
  properties: {
    provider: modelSchema(socialProvider),
    externalId: { type: 'string', description: "The account's id at the provider" },
    username: { type: ['string', 'null'] },
    linkedAt: { type: 'string', format: 'date-time' },
  },
} as const;

const providerParams = (providers: typeof socialProvider | typeof oauthProvider) =>
  ({ type: 'object', required: ['provider'], properties: { provider: modelSchema(providers) } }) as const;

const callbackQuery = {
  type: 'object',
  properties: Object.fromEntries(['code', 'state', 'error', 'error_description', 'iss'].map((k) => [k, { type: 'string', maxLength: 2048 }])),
} as const;

const AUTH_ERRORS = ['UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED'] as const;

/**
 * Linking social accounts to the caller's profile: OAuth connect (redirect + callback) for the
 * chat platform and the social network, a signed login payload for the messaging platform.
 */
export async function socialLinkRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.addSchema(socialLinkSchema);
  const { socialLinks } = services;

  app.get(
    '/users/me/social',
    {
      config: { access: 'wallet' },
      schema: {
        tags: ['users'],
        operationId: 'socialLinks',
        summary: "The caller's linked social accounts",
        response: {
          200: { type: 'object', required: ['links'], properties: { links: { type: 'array', items: { $ref: `${SOCIAL_LINK_ID}#` } } } },
          ...errorResponses([...AUTH_ERRORS, ...COMMON_ERRORS]),
        },
      },
    },
    async (request) => ({ links: await socialLinks.list(walletOf(request)) }),
  );

  app.post<{ Params: { provider: string } }>(
    '/users/me/social/:provider/connect',
    {
      config: { access: 'wallet' },
      ...judgedByService,
      schema: {
        tags: ['users'],
        operationId: 'socialConnect',
        summary: 'Start linking an OAuth provider: the URL to send the browser to',
        description:
          'Authorization code with state and PKCE (S256). The state is bound to the caller, single use, valid 10 minutes; the provider returns the browser to GET /api/users/social/{provider}/callback.',
        params: providerParams(oauthProvider),
        body: { type: 'object', additionalProperties: false, properties: {}, description: 'Empty (or no body): the provider is in the path' },
        response: {
          200: { type: 'object', required: ['authorizationUrl'], properties: { authorizationUrl: { type: 'string', format: 'uri' } } },
          ...errorResponses(['VALIDATION_FAILED', 'SERVICE_UNAVAILABLE', ...AUTH_ERRORS, ...COMMON_ERRORS]),
        },
      },
    },
    async (request) => socialLinks.connect(walletOf(request), request.params.provider),
  );

  app.post(
    '/users/me/social/messaging_platform/connect',
    {
      config: { access: 'wallet' },
      ...judgedByService,
      schema: {
        tags: ['users'],
        operationId: 'socialConnectMessagingPlatform',
        summary: "Link the messaging platform with its login widget's signed payload",
        description: 'The body is the payload exactly as the widget returns it; `hash` is checked against the bot token and `auth_date` may be at most a day old.',
        body: documentedBody(messagingLoginInput),
        response: {
          200: { $ref: `${SOCIAL_LINK_ID}#` },
          ...errorResponses(['VALIDATION_FAILED', 'SIGNATURE_INVALID', 'SOCIAL_PAYLOAD_EXPIRED', 'ACCOUNT_ALREADY_LINKED', 'SERVICE_UNAVAILABLE', ...AUTH_ERRORS, ...COMMON_ERRORS]),
        },
      },
    },
    async (request) => socialLinks.linkMessagingPlatform(walletOf(request), request.body),
  );

  app.delete<{ Params: { provider: string } }>(
    '/users/me/social/:provider',
    {
      config: { access: 'wallet' },
      ...judgedByService,
      schema: {
        tags: ['users'],
        operationId: 'socialDisconnect',
        summary: 'Unlink a social provider (idempotent)',
        params: providerParams(socialProvider),
        response: {
          204: { type: 'null', description: 'Unlinked, or was not linked' },
          ...errorResponses(['VALIDATION_FAILED', ...AUTH_ERRORS, ...COMMON_ERRORS]),
        },
      },
    },
    async (request, reply) => {
      await socialLinks.disconnect(walletOf(request), request.params.provider);
      return reply.code(204).send();
    },
  );

  app.get<{ Params: { provider: string }; Querystring: OAuthCallbackQuery }>(
    '/users/social/:provider/callback',
    {
      ...judgedByService,
      schema: {
        tags: ['users'],
        operationId: 'socialCallback',
        summary: 'OAuth redirect URI: the provider returns the browser here',
        description:
          'No access token (a browser navigation): the state names the wallet that connected. Always answers 302 to APP_URL/profile: `?linked={provider}` on success, else `?linkError={CODE}&provider={provider}` with OAUTH_STATE_INVALID, OAUTH_GRANT_REFUSED, ACCOUNT_ALREADY_LINKED, UPSTREAM_UNAVAILABLE, SERVICE_UNAVAILABLE, VALIDATION_FAILED or INTERNAL.',
        params: providerParams(oauthProvider),
        querystring: callbackQuery,
        response: {
          302: { type: 'null', description: 'To APP_URL/profile with `linked` or `linkError`' },
          ...errorResponses(COMMON_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const { provider } = request.params;
      try {
        await socialLinks.completeOAuth(provider, request.query);
        return reply.redirect(socialLinks.returnUrl({ provider, linked: true }), 302);
      } catch (err) {
        // The browser is mid-navigation: every failure goes back to the app, named by its code.
        if (!isAppError(err)) request.log.error({ err, provider }, 'social link callback failed');
        else request.log[err.status >= 500 ? 'warn' : 'info']({ provider, code: err.code, reason: err.message }, 'social link callback refused');
        return reply.redirect(socialLinks.returnUrl({ provider, errorCode: isAppError(err) ? err.code : 'INTERNAL' }), 302);
      }
    },
  );
}
