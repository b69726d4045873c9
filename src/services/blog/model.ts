import { z } from 'zod';
import type { DeliverySuccess, RefreshOutcome } from '../../../cms/webhook/types';

/** The partner webhook's events. */
export const webhookEvent = z.enum(['webhook.test', 'article.published']);
/** What a delivery did: `webhook_test` wrote nothing; `created`/`updated` wrote the post; `duplicate` was seen before. */
export const webhookResult = z.enum(['webhook_test', 'created', 'updated', 'duplicate']);
/** The blog refresh calls made after a write. */
export const refreshKind = z.enum(['revalidate', 'ci_dispatch']);

// cms/ may import nothing from src/ but its config, so it keeps its own unions: these fail the typecheck when the two drift.
type SameSet<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const cmsUnionsAgree: [
  SameSet<z.infer<typeof webhookEvent>, DeliverySuccess['event']>,
  SameSet<z.infer<typeof webhookResult>, DeliverySuccess['code']>,
  SameSet<z.infer<typeof refreshKind>, RefreshOutcome['kind']>,
] = [true, true, true];
