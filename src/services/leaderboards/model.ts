import { z } from 'zod';
import { BOARDS, type Board } from '../../chain-events/leaderboards';

/** Which indexer-fed leaderboard to read: the boards the indexer's registry declares (src/chain-events/leaderboards.ts), in their public order. */
export const leaderboardBoard = z.enum(BOARDS as [Board, ...Board[]]);
