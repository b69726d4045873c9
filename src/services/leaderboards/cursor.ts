import { AppError } from '../../errors';

/** Where a leaderboard page ends: the last row's rank and its place in (score DESC, player ASC) order. */
export interface LeaderboardPosition {
  rank: number;
  score: string;
  player: string;
}

/** Opaque to clients: base64url of `rank:score:player` (addresses and decimal scores hold no colon). */
export const encodeLeaderboardCursor = (p: LeaderboardPosition): string => Buffer.from(`${p.rank}:${p.score}:${p.player}`).toString('base64url');

export function decodeLeaderboardCursor(cursor: string): LeaderboardPosition {
  const m = /^([1-9]\d{0,9}):(\d{1,40}):([^:]{1,200})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw new AppError('VALIDATION_FAILED', 'after must be the cursor of a leaderboard entry');
  return { rank: Number(m[1]), score: m[2]!, player: m[3]! };
}
