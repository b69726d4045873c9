import { createHash } from 'node:crypto';

/** A PostgreSQL advisory lock key: a signed 64-bit integer, or a name hashed to one. */
export type LockKey = string | number | bigint;

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

export function toLockKey(key: LockKey): bigint {
  if (typeof key === 'string') {
    return createHash('sha256').update(key).digest().readBigInt64BE(0);
  }
  const k = BigInt(key);
  if (k < INT64_MIN || k > INT64_MAX) throw new RangeError(`advisory lock key out of int8 range: ${k}`);
  return k;
}

/** The key Prisma's schema engine takes while migrating, so the CLI and our migrator exclude each other. */
export const PRISMA_MIGRATE_LOCK_KEY = 72707369n;
