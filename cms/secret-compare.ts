import { createHash, timingSafeEqual } from 'node:crypto'

/** Constant-time comparison of two secrets of any length (both are hashed first). */
export function secretsEqual(given: string | null | undefined, expected: string | null | undefined): boolean {
  if (!given || !expected) return false
  const a = createHash('sha256').update(given).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}
