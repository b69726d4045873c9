import { z } from 'zod';
import { suiAddress } from '../../input/sui-address';
import { named } from '../model-names';

/** Who acted: an operator wallet (its access token) or automation holding OPERATOR_TOKEN. */
export type OperatorActor = { wallet: string } | { token: true };

export const auditPageInput = z.object({
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,18}$/, 'cursor must be the nextCursor of a previous page')
    .optional()
    .describe('`nextCursor` of the previous page'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export interface AuditRecord {
  id: string;
  /** The operator's wallet, or `operator-token`. */
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  requestId: string | null;
  at: Date;
}

export const grantInput = z.object({ wallet: suiAddress('wallet must be a Sui address') });

export const OPERATOR_SOURCES = ['setting', 'grant'] as const;
export type OperatorSource = (typeof OPERATOR_SOURCES)[number];

export interface OperatorRecord {
  wallet: string;
  /** `setting`: named by OPERATOR_WALLETS (revoked only there); `grant`: granted by an operator. */
  source: OperatorSource;
  grantedBy: string | null;
  grantedAt: Date | null;
}

/** The reply models (REST schemas are generated from these). */
export const operatorRecordModel = z.object({
  wallet: z.string().describe('Sui address'),
  source: z.enum(OPERATOR_SOURCES).describe('`setting`: named by OPERATOR_WALLETS (removed only there); `grant`: granted by an operator'),
  grantedBy: z.string().nullable().describe('The granting operator (a wallet, or operator-token); null for `setting`'),
  grantedAt: named('DateTimeISO', z.iso.datetime()).nullable(),
}).describe('A wallet holding the operator role');

/** Written as GraphQL's DateTimeISO (the records carry Dates). */
const at = named('DateTimeISO', z.iso.datetime());

export const auditRecordModel = z.object({
  id: z.string(),
  actor: z.string().describe('The operator wallet, or `operator-token` (automation)'),
  action: z.string().describe('`<area>.<verb>`, e.g. `operators.grant`, `campaigns.update`, `chat.ban`'),
  target: z.string().describe('What was acted on (a slug, a wallet, an id)'),
  before: z.unknown().describe('The target before the action (null when it did not exist)'),
  after: z.unknown().describe('The target after the action (null when it was removed)'),
  requestId: z.string().nullable(),
  at,
});

export const auditPageModel = z.object({
  items: z.array(auditRecordModel).describe('Newest first'),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next (older) page; null on the last page'),
});

export const revocationModel = z.object({ wallet: z.string(), revoked: z.boolean() });

/** The audit page as GraphQL answers it: `before` and `after` as JSON text (GraphQL has no JSON scalar here). */
const auditRecordTextModel = auditRecordModel
  .extend({
    before: z.string().nullable().describe('The target before the action, as JSON'),
    after: z.string().nullable().describe('The target after the action, as JSON'),
  })
  .describe('One operator action');
export const auditPageTextModel = auditPageModel.extend({ items: z.array(auditRecordTextModel).describe('Newest first') });
const asJson = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
export const auditPageAsText = (page: { items: AuditRecord[]; nextCursor: string | null }) => ({
  ...page,
  items: page.items.map((r) => ({ ...r, before: asJson(r.before), after: asJson(r.after) })),
});

// The GraphQL types these models become (src/graphql/zod-types.ts).
named('Operator', operatorRecordModel);
named('OperatorSource', operatorRecordModel.shape.source);
named('OperatorRevocation', revocationModel);
named('OperatorAuditEntry', auditRecordTextModel);
named('OperatorAuditPage', auditPageTextModel);
