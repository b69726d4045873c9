import { normalizeSuiAddress } from '@mysten/sui/utils';
import { z } from 'zod';

/**
 * A Sui address as every input takes it: `0x` and 1–64 hex digits, either case, normalized to
 * the 64-digit lowercase form the tables store (Sui itself treats `0x2` and `0x0…02` as one address).
 */
export const suiAddress = (field = 'must be a Sui address') =>
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{1,64}$/, { error: `${field}: 0x followed by up to 64 hex digits` })
    .transform((a) => normalizeSuiAddress(a.toLowerCase()));
