import { normalizeStructTag } from '@mysten/sui/utils';

const MEMO_MAX = 10_000;
const memo = new Map<string, string>();

/**
 * normalizeStructTag, remembered (bounded; a type that does not parse throws and is not kept):
 * the indexer and the leaderboard reads see the same few types (an event kind, a handful of coins)
 * again and again, and the SDK's parse costs tens of microseconds each time.
 */
export function normalizeMoveType(type: string): string {
  let normalized = memo.get(type);
  if (normalized === undefined) {
    normalized = normalizeStructTag(type);
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(type, normalized);
  }
  return normalized;
}
