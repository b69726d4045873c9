import { z } from 'zod';
import { named } from '../model-names';

/**
 * A chain write's status: `queued` (waiting, maybe for its next attempt after a transient
 * failure) → `submitted` (signed and sent; resolved by digest) → `confirmed` (executed
 * successfully) | `failed` (a definite failure, or transient ones past CHAIN.WRITE_MAX_ATTEMPTS);
 * `queued` → `cancelled` by an operator.
 */
export const CHAIN_WRITE_STATUSES = ['queued', 'submitted', 'confirmed', 'failed', 'cancelled'] as const;
export const chainWriteStatus = z.enum(CHAIN_WRITE_STATUSES);
export type ChainWriteStatus = z.infer<typeof chainWriteStatus>;

const writeId = z.string().regex(/^[1-9]\d{0,18}$/, 'id must be a chain write id (a positive integer)');

export const chainWriteIdInput = z.object({ id: writeId });

export const chainWriteListInput = z.object({
  status: chainWriteStatus.optional(),
  kind: z.string().min(1).max(100).optional().describe('e.g. `welcome-wheel.payout`, `giveaway.settle`'),
  cursor: z.string().regex(/^[1-9]\d{0,18}$/, 'cursor must be the nextCursor of a previous page').optional().describe('`nextCursor` of the previous page'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** A chain write as operators see it (the signed bytes and signature stay in the database). */
export const chainWriteModel = z.object({
  id: z.string(),
  kind: z.string().describe('What the write does, e.g. `giveaway.settle`, `welcome-wheel.payout`'),
  key: z.string().describe('Idempotency key (one write per key)'),
  status: chainWriteStatus.describe('queued → submitted → confirmed | failed; queued → cancelled'),
  payload: z.record(z.string(), z.unknown()).describe("The kind's input"),
  digest: z.string().nullable().describe('Transaction digest once signed (a retried write may be signed again if its old transaction can never execute)'),
  attempts: z.number().int().describe('Attempts since the write was last queued'),
  lastError: z.string().nullable().describe('The last transient error while retried; the final error of a failed write'),
  nextAttemptAt: z.iso.datetime().nullable().describe('When the next automatic attempt is due after a transient failure'),
  gasBudget: z.string().nullable().describe('MIST: the dry run plus CHAIN.WRITE_GAS_MARGIN_PERCENT'),
  gasUsed: z.string().nullable().describe('MIST: computation + storage − rebate'),
  effectsStatus: named('ChainWriteEffectsStatus', z.enum(['success', 'failure'])).nullable().describe('The executed transaction\'s effects status'),
  resolvedByDigest: z.boolean().describe('The outcome was learned by digest after a lost answer'),
  createdAt: z.iso.datetime(),
  queuedAt: z.iso.datetime().describe('When it last entered the queue (created, or retried by an operator)'),
  submittedAt: z.iso.datetime().nullable(),
  finishedAt: z.iso.datetime().nullable(),
}).describe('A blockchain write of the backend wallet (the chain-write outbox)');

export const chainWritePageModel = z.object({
  items: z.array(chainWriteModel).describe('Newest first'),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next (older) page; null on the last page'),
});

/** Nothing in the body is read: the write is the path's. */
export const noBody = z.object({}).describe('Empty (or no body)');

/** A chain write as GraphQL answers it: its payload as JSON text (GraphQL has no JSON scalar here). */
export const chainWriteTextModel = chainWriteModel
  .extend({ payload: z.string().describe("The kind's input, as JSON") })
  .describe('A blockchain write of the backend wallet (the chain-write outbox)');
export const chainWritePageTextModel = chainWritePageModel.extend({ items: z.array(chainWriteTextModel).describe('Newest first') });
export const chainWriteAsText = <W extends { payload: unknown }>(write: W) => ({ ...write, payload: JSON.stringify(write.payload) });
export const chainWritePageAsText = <W extends { payload: unknown }>(page: { items: W[]; nextCursor: string | null }) => ({ ...page, items: page.items.map(chainWriteAsText) });

// The GraphQL types these models become (src/graphql/zod-types.ts).
named('ChainWriteStatus', chainWriteStatus);
named('ChainWrite', chainWriteTextModel);
named('ChainWritePage', chainWritePageTextModel);
