import { z } from 'zod';

/** A sub-name follows its chain write: `pending` until it ran, then `issued` (with the digest) or `failed`. */
export const subnameStatus = z.enum(['pending', 'issued', 'failed']);
export type SubnameStatus = z.infer<typeof subnameStatus>;
