// Writes that must happen exactly once, driven as clients would while a network fault lasts (issue 45
// item 8, test/runtime/edge-network-faults.test.ts): a quest claim sent from both replicas at once and a
// Socket.IO chat message with a `clientId`, each retried on a 503, a refusal of the moment or a time-out
// until it is answered for good. What each attempt answered is kept for the assertions; PostgreSQL
// decides afterwards whether anything was lost or doubled.
import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import type { Db } from '../../src/db/client';
import { createEventStore } from '../../src/indexer/store';
import { emitAck, type Ack } from '../gateway/gateway-helpers';
import { betEvent } from '../quests/quests-helpers';

/** One attempt as the client saw it: a status (HTTP, or 200/the ack's error code for Socket.IO) and its duration. */
export interface Attempt {
  write: 'claim' | 'chat';
  outcome: string;
  ms: number;
}

export interface Written {
  attempts: Attempt[];
  /** The id the write was finally answered with (the message's id; the claim's id, or null for DUPLICATE_CLAIM). */
  id: string | null;
}

/** Retries `once` until it says it is settled (it throws on a time-out), giving up after `deadline`. */
async function retried(write: Attempt['write'], once: () => Promise<{ outcome: string; settled: boolean; id: string | null }>, deadline: number, what: string): Promise<Written> {
  const attempts: Attempt[] = [];
  for (;;) {
    const t = performance.now();
    const answer = await once().catch((err: Error) => ({ outcome: `timeout:${err.message}`, settled: false, id: null }));
    attempts.push({ write, outcome: answer.outcome, ms: performance.now() - t });
    if (answer.settled) return { attempts, id: answer.id };
    if (Date.now() > deadline) throw new Error(`${what} never settled: ${JSON.stringify(attempts.map((a) => a.outcome))}`);
    // a client's back-off before trying again
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Makes the daily bet quest claimable for `player`: one indexed bet, written as the indexer writes it. */
export async function completeDailyBet(db: Db, player: string): Promise<void> {
  const store = createEventStore({ db });
  const stored = await store.loadCursor('bet_result_event');
  await store.writeBatch({ kind: 'bet_result_event', events: [betEvent(player, new Date())], cursor: stored?.cursor ?? null, nextCursor: randomUUID() }, 'graphql');
}

/** One claim of the daily bet quest on one replica, retried until it is 200 or DUPLICATE_CLAIM. */
export function claimUntilAnswered(replicaUrl: string, token: string, timeoutMs: number, deadline: number): Promise<Written> {
  return retried(
    'claim',
    async () => {
      const res = await fetch(`${replicaUrl}/api/quests/campaigns/platform/daily-bet/claim`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = (await res.json().catch(() => null)) as { error?: { code: string } } | null;
      const outcome = body?.error?.code ? `${res.status}:${body.error.code}` : String(res.status);
      return { outcome, settled: res.status === 200 || body?.error?.code === 'DUPLICATE_CLAIM', id: res.status === 200 ? 'claimed' : null };
    },
    deadline,
    `the claim on ${replicaUrl}`,
  );
}

/** A Socket.IO client through the edge that reconnects by itself, as a browser's would; resolves once connected. */
export function chatSocket(edgeUrl: string, token: string): Promise<Socket> {
  const socket = io(edgeUrl, { path: '/socket.io/', auth: { token }, transports: ['websocket'], forceNew: true, reconnectionDelay: 100, reconnectionDelayMax: 500 });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** One chat message with its own clientId over `socket`, re-sent with the same clientId until acknowledged `ok`. */
export function chatUntilStored(socket: Socket, room: string, text: string, timeoutMs: number, deadline: number): Promise<Written & { clientId: string }> {
  const clientId = randomUUID();
  return retried(
    'chat',
    async () => {
      const ack: Ack = await emitAck(socket, 'chat:send', { room, text, clientId }, timeoutMs);
      if (ack.ok) return { outcome: 'ok', settled: true, id: (ack.message as { id: string }).id };
      return { outcome: ack.error.code, settled: false, id: null };
    },
    deadline,
    `chat message ${clientId}`,
  ).then((w) => ({ ...w, clientId }));
}

/** What PostgreSQL holds for `player`'s claims: the claim rows and the quest XP credited. */
export async function claimsOf(db: Db, player: string): Promise<{ n: number; xp: string | null } | undefined> {
  const [row] = await db.query<{ n: number; xp: string | null }>(
    'SELECT (SELECT count(*)::int FROM quest_claim WHERE player_address = $1) AS n, (SELECT quest_xp::text FROM xp_leaderboard WHERE player = $1) AS xp',
    [player],
  );
  return row;
}

/** The ids of the messages `author` has stored under each of `clientIds` (absent: none). */
export async function messagesByClientId(db: Db, author: string, clientIds: string[]): Promise<Record<string, string[]>> {
  const rows = await db.query<{ client_id: string; ids: string[] }>(
    'SELECT client_id, array_agg(id::text) AS ids FROM chat_message WHERE author = $1 AND client_id = ANY($2::text[]) GROUP BY client_id',
    [author, clientIds],
  );
  return Object.fromEntries(rows.map((r) => [r.client_id, r.ids]));
}
