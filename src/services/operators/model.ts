import { z } from 'zod';
import { suiAddress } from '../../input/sui-address';

/** Who acted: an operator wallet (its access token) or automation holding OPERATOR_TOKEN. */
export type OperatorActor = { wallet: string } | { token: true };

export const auditPageInput = z.object({
  cursor: z.string().regex(/^[1-9]\d{0,18}$/, 'cursor must be the nextCursor of a previous page').optional(),
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
  grantedAt: z.iso.datetime().nullable(),
});

export const auditRecordModel = z.object({
  id: z.string(),
  actor: z.string().describe('The operator wallet, or `operator-token` (automation)'),
  action: z.string().describe('`<area>.<verb>`, e.g. `operators.grant`, `campaigns.update`, `chat.ban`'),
  target: z.string().describe('What was acted on (a slug, a wallet, an id)'),
  before: z.unknown().describe('The target before the action (null when it did not exist)'),
  after: z.unknown().describe('The target after the action (null when it was removed)'),
  requestId: z.string().nullable(),
  at: z.iso.datetime(),
});

export const auditPageModel = z.object({
  items: z.array(auditRecordModel).describe('Newest first'),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next (older) page; null on the last page'),
});
