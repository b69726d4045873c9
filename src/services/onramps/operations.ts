import { z } from 'zod';
import { named } from '../model-names';
import { operationsOver, type OperationSet } from '../operation';
import { PARTNER_USER_REF_LENGTH, sessionTokenInput, signUrlInput, type OnrampsService } from './service';

type Svc = { onramps: OnrampsService };
const operation = operationsOver<Svc>();
const TAG = 'onramps';
const BODY_ERRORS = ['VALIDATION_FAILED', 'BAD_REQUEST', 'UNSUPPORTED_MEDIA_TYPE', 'SERVICE_UNAVAILABLE'] as const;

const signedUrlModel = named(
  'OnrampSignedUrl',
  z.object({
    url: z.string().describe('The widget URL with `&signature=…` appended last'),
    signature: z.string().describe('The bare signature: base64(HMAC-SHA256(secret, query string as sent))'),
  }),
);

const sessionTokenModel = named(
  'OnrampSessionToken',
  z.object({
    sessionToken: z.string().describe("On-ramp B's single-use token"),
    partnerUserRef: z
      .string()
      .length(PARTNER_USER_REF_LENGTH)
      .regex(/^[A-Za-z0-9_-]+$/)
      .describe(`base64url(SHA-256(lower-cased address + "platform-cdp")), ${PARTNER_USER_REF_LENGTH} characters`),
    expiresInSeconds: z.int(),
  }),
);

// Every field optional on GraphQL too: the service names each missing or malformed one, as for a REST body.
named('OnrampSessionTokenInput', sessionTokenInput, { fieldsOptional: true, description: 'All three are required' });

/** Fiat on-ramp helpers (./service.ts): a signed widget URL (A) and a single-use session token (B); no access token needed. */
export const onrampOperations: OperationSet<Svc> = {
  domain: 'onramps',
  operations: [
    operation({
      summary: "Sign on-ramp A's widget URL",
      description:
        "The widget URL must be on the provider's origin (ONRAMP_A.WIDGET_URL) and carry this platform's `apiKey`. The answer appends `signature` = base64(HMAC-SHA256(secret key, the URL's query string as sent, leading `?` included)), URL-encoded, as the last parameter.",
      kind: 'query',
      access: 'public',
      input: signUrlInput,
      output: signedUrlModel,
      errors: BODY_ERRORS,
      rest: { method: 'POST', path: '/onramp-a/sign-url', operationId: 'onrampASignUrl', tag: TAG },
      graphql: { field: 'onrampASignedUrl', spread: true },
      handle: ({ onramps }, { input }) => onramps.signUrl(input),
    }),
    operation({
      summary: "A single-use on-ramp B session token (5 minutes) for one address, plus the wallet's partnerUserRef",
      description:
        'Every missing or malformed field is named in `error.details.issues`. At most 20 tokens per client IP per minute (RATE_LIMITED). The client IP sent to the provider is the trusted request address. `partnerUserRef` = base64url(SHA-256(lower-cased hexAddress followed by the salt `platform-cdp`)) without `=` padding, cut to 40 characters.',
      kind: 'mutation',
      access: 'public',
      input: sessionTokenInput,
      output: sessionTokenModel,
      errors: [...BODY_ERRORS, 'UPSTREAM_UNAVAILABLE'],
      rest: { method: 'POST', path: '/onramp-b/session-token', operationId: 'onrampBSessionToken', tag: TAG },
      graphql: { field: 'onrampBSessionToken' },
      handle: ({ onramps }, { input, ip, signal }) => onramps.sessionToken(input, { clientIp: ip, signal }),
    }),
  ],
};
