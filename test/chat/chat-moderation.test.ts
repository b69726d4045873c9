/**
 * Chat moderation through the real transports: an operator removes a message (gone from REST and
 * GraphQL history, `chat:removed` on Socket.IO and `chatMessageRemoved` on graphql-ws, reactions
 * gone, reports resolved), bans a wallet from chat writes (CHAT_BANNED with `details.until` on
 * both transports, lifted by unban or by its `until`), and works the players' report queue.
 * Every admin route: 401 without a token, 403 for a wallet without the role, VALIDATION_FAILED
 * with field details, one audit row per action; each has a GraphQL twin.
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BanChatWalletDocument,
  ChatBansDocument,
  ChatHistoryDocument,
  ChatMessageRemovedDocument,
  ChatReportsDocument,
  DeleteChatMessageDocument,
  DismissChatReportDocument,
  ReportChatMessageDocument,
  SendChatMessageDocument,
  UnbanChatWalletDocument,
} from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { gql, wsClient, wsQuery, wsSubscribe } from '../helpers/client';
import { collect, connectSocket, emitAck, until, type Ack } from '../gateway/gateway-helpers';

const OPERATOR = `0x${randomBytes(32).toString('hex')}`;
let api: TestApi;
const sockets: Socket[] = [];

beforeAll(async () => {
  // a roomy message limit: the removal test sends probe messages until its subscription is live
  api = await startApi({ env: { OPERATOR_WALLETS: OPERATOR, CHAT_MESSAGE_RATE_LIMIT_MAX: '100' } });
}, 60_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await api?.close();
});

const newWallet = (): string => `0x${randomBytes(32).toString('hex')}`;
const tokenOf = (wallet: string) => api.services.tokens.signAccess(wallet);
const bearer = (wallet: string) => ({ authorization: `Bearer ${tokenOf(wallet)}` });
const socketOf = async (wallet?: string) => {
  const s = await connectSocket(api.url, { token: wallet ? tokenOf(wallet) : undefined });
  sockets.push(s);
  return s;
};

async function call(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read field by field
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const historyTexts = async (room: string) => {
  const rest = await call('GET', `/api/chat/message?room=${encodeURIComponent(room)}`);
  const graphql = await gql(api.url, ChatHistoryDocument, { room });
  return { rest: (rest.body.items as Array<{ text: string }>).map((m) => m.text), graphql: graphql.body.data!.chatHistory.items.map((m) => m.text) };
};
const auditRows = (action: string, target: string) => api.db.prisma.operatorAudit.findMany({ where: { action, target }, orderBy: { id: 'asc' } });

async function send(writer: Socket, room: string, text: string): Promise<string> {
  return sentId(await emitAck(writer, 'chat:send', { room, text }));
}
function sentId(ack: Ack): string {
  if (!ack.ok) throw new Error(`chat:send refused: ${ack.error.code}`);
  return (ack.message as { id: string }).id;
}

describe('chat moderation: admin access and input', () => {
  it('refuses every admin route without a token (401) and for a wallet without the role (403), on REST and GraphQL', async () => {
    const player = bearer(newWallet());
    for (const [method, path, body] of [
      ['DELETE', '/api/admin/chat/messages/1'],
      ['GET', '/api/admin/chat/bans'],
      ['POST', '/api/admin/chat/bans', { wallet: newWallet(), reason: 'spam' }],
      ['DELETE', `/api/admin/chat/bans/${newWallet()}`],
      ['GET', '/api/admin/chat/reports'],
      ['POST', '/api/admin/chat/reports/1/dismiss', {}],
    ] as const) {
      const anonymous = await call(method, path, {}, body);
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
      const stranger = await call(method, path, player, body);
      expect(stranger.status, `${method} ${path}`).toBe(403);
      expect(stranger.body.error.code).toBe('FORBIDDEN');
    }
    const twins = [
      gql(api.url, DeleteChatMessageDocument, { id: '1' }, player),
      gql(api.url, ChatBansDocument, {}, player),
      gql(api.url, BanChatWalletDocument, { wallet: newWallet(), reason: 'spam' }, player),
      gql(api.url, UnbanChatWalletDocument, { wallet: newWallet() }, player),
      gql(api.url, ChatReportsDocument, {}, player),
      gql(api.url, DismissChatReportDocument, { id: '1' }, player),
    ];
    for (const answer of await Promise.all(twins)) expect(answer.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const anonymousTwin = await gql(api.url, ChatBansDocument, {});
    expect(anonymousTwin.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    // the players' report needs a wallet token
    const unsigned = await call('POST', '/api/chat/reports', {}, { messageId: '1', reason: 'spam' });
    expect(unsigned.status).toBe(401);
    expect((await gql(api.url, ReportChatMessageDocument, { messageId: '1', reason: 'spam' })).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('refuses bad input with VALIDATION_FAILED and field details, writing nothing', async () => {
    const operator = bearer(OPERATOR);
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/api/admin/chat/bans', { wallet: 'alice', reason: 'spam' }, '/wallet'],
      ['POST', '/api/admin/chat/bans', { wallet: newWallet(), reason: '   ' }, '/reason'],
      ['POST', '/api/admin/chat/bans', { wallet: newWallet() }, '/reason'],
      ['POST', '/api/admin/chat/bans', { wallet: newWallet(), reason: 'x'.repeat(501) }, '/reason'],
      ['POST', '/api/admin/chat/bans', { wallet: newWallet(), reason: 'spam', until: 'tomorrow' }, '/until'],
      ['POST', '/api/admin/chat/bans', { wallet: newWallet(), reason: 'spam', until: '2001-01-01T00:00:00Z' }, '/until'],
      ['POST', '/api/admin/chat/bans', { wallet: newWallet(), reason: 'spam', forever: true }, ''],
      ['DELETE', '/api/admin/chat/bans/alice', undefined, '/wallet'],
      ['DELETE', '/api/admin/chat/messages/abc', undefined, '/id'],
      ['GET', '/api/admin/chat/reports?status=closed', undefined, '/status'],
      ['GET', '/api/admin/chat/reports?limit=1000', undefined, '/limit'],
      ['POST', '/api/admin/chat/reports/x/dismiss', {}, '/id'],
      ['POST', '/api/admin/chat/reports/1/dismiss', { note: '' }, '/note'],
    ];
    for (const [method, path, body, field] of cases) {
      const answer = await call(method, path, operator, body);
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_FAILED');
      expect(answer.body.error.details.issues, `${method} ${path}`).toEqual(expect.arrayContaining([expect.objectContaining({ path: field })]));
    }
    const player = bearer(newWallet());
    const badReport = await call('POST', '/api/chat/reports', player, { messageId: 'first', reason: '' });
    expect(badReport.status).toBe(400);
    expect(badReport.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['/messageId', '/reason']);
    const overGraphql = await gql(api.url, BanChatWalletDocument, { wallet: newWallet(), reason: 'spam', until: 'soon' }, operator);
    expect(overGraphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [expect.objectContaining({ path: '/until' })] } });
    expect(await api.db.prisma.chatBan.count()).toBe(0);
  });
});

describe('removing a message', () => {
  it('takes it out of REST and GraphQL history, tells Socket.IO and graphql-ws subscribers, deletes its reactions and resolves its reports, audited', async () => {
    const room = 'game:moderation-remove';
    const [author, reactor, reporter] = [newWallet(), newWallet(), newWallet()];
    const writer = await socketOf(author);
    const reader = await socketOf();
    expect(await emitAck(reader, 'room:join', { room })).toMatchObject({ ok: true });
    const removedOnSocketIo = collect<{ id: string; room: string; removedAt: string }>(reader, 'chat:removed');
    const listener = wsClient(api.wsUrl);
    const sub = wsSubscribe(listener, ChatMessageRemovedDocument, { room });
    try {
      // the graphql-ws subscription goes live asynchronously: remove probe messages until one is seen
      await until(async () => {
        const probe = await send(writer, room, 'probe');
        expect((await call('DELETE', `/api/admin/chat/messages/${probe}`, bearer(OPERATOR))).status).toBe(200);
        return sub.events.length > 0;
      }, 'the graphql-ws removal subscription to go live');

      const keep = await send(writer, room, 'keep me');
      const bad = await send(writer, room, 'remove me');
      const reactorSocket = await socketOf(reactor);
      expect(await emitAck(reactorSocket, 'chat:react', { messageId: bad, emoji: '👎' })).toMatchObject({ ok: true });
      const report = await call('POST', '/api/chat/reports', bearer(reporter), { messageId: bad, reason: 'abusive' });
      expect(report.status).toBe(200);
      expect((await historyTexts(room)).rest).toEqual(['remove me', 'keep me']);

      const removed = await call('DELETE', `/api/admin/chat/messages/${bad}`, bearer(OPERATOR));
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ id: bad, room, removedAt: expect.any(String), reportsResolved: 1 });
      const { reportsResolved: _resolved, ...payload } = removed.body;
      await until(() => removedOnSocketIo.some((r) => r.id === bad), 'chat:removed on Socket.IO');
      expect(removedOnSocketIo.find((r) => r.id === bad)).toEqual(payload);
      const removedOnGraphqlWs = () => sub.events.map((e) => e.data?.chatMessageRemoved).find((r) => r?.id === bad);
      await until(removedOnGraphqlWs, 'chatMessageRemoved on graphql-ws');
      expect(removedOnGraphqlWs()).toEqual(payload);

      expect(await historyTexts(room)).toEqual({ rest: ['keep me'], graphql: ['keep me'] });
      expect(await api.db.prisma.chatReaction.count({ where: { messageId: BigInt(bad) } })).toBe(0);
      const stored = await api.db.prisma.chatMessage.findUniqueOrThrow({ where: { id: BigInt(bad) } });
      expect(stored).toMatchObject({ deletedBy: OPERATOR, deletedAt: new Date(removed.body.removedAt) });
      expect((await api.db.prisma.chatReport.findFirstOrThrow({ where: { messageId: BigInt(bad) } })).status).toBe('removed');

      // a removed message takes no reactions or reports and is not removed twice
      expect(await emitAck(reactorSocket, 'chat:react', { messageId: bad, emoji: '👍' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
      expect((await call('POST', '/api/chat/reports', bearer(newWallet()), { messageId: bad, reason: 'late' })).status).toBe(404);
      const again = await call('DELETE', `/api/admin/chat/messages/${bad}`, bearer(OPERATOR));
      expect(again.status).toBe(404);
      expect(again.body.error.code).toBe('NOT_FOUND');
      expect((await call('DELETE', '/api/admin/chat/messages/999999999', bearer(OPERATOR))).status).toBe(404);

      const rows = await auditRows('chat.remove', bad);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ actor: OPERATOR, before: expect.objectContaining({ text: 'remove me', author, reactions: 1, openReports: 1 }) });
      expect(rows[0]!.after).toMatchObject({ deletedBy: OPERATOR });

      // the GraphQL twin
      const viaGraphql = await gql(api.url, DeleteChatMessageDocument, { id: keep }, bearer(OPERATOR));
      expect(viaGraphql.body.data?.deleteChatMessage).toMatchObject({ id: keep, room, reportsResolved: 0 });
      expect(await historyTexts(room)).toEqual({ rest: [], graphql: [] });
      await until(() => removedOnSocketIo.some((r) => r.id === keep), 'the second removal on Socket.IO');
    } finally {
      sub.dispose();
      await listener.dispose();
    }
  });

  it('does not hand a removed message back to a retried send with the same clientId', async () => {
    const room = 'game:moderation-retry';
    const writer = await socketOf(newWallet());
    const first = await emitAck(writer, 'chat:send', { room, text: 'once', clientId: 'retry-1' });
    const id = sentId(first);
    expect((await call('DELETE', `/api/admin/chat/messages/${id}`, bearer(OPERATOR))).status).toBe(200);
    expect(await emitAck(writer, 'chat:send', { room, text: 'once', clientId: 'retry-1' })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
  });
});

describe('banning a wallet', () => {
  it('refuses its messages, reactions and typing with CHAT_BANNED and details.until on both transports until unbanned, audited', async () => {
    const room = 'game:moderation-ban';
    const wallet = newWallet();
    const writer = await socketOf(wallet);
    const ws = wsClient(api.wsUrl, { authorization: `Bearer ${tokenOf(wallet)}` });
    try {
      const target = await send(writer, room, 'before the ban');
      const ends = new Date(Date.now() + 3_600_000).toISOString();
      const banned = await gql(api.url, BanChatWalletDocument, { wallet: wallet.toUpperCase().replace('0X', '0x'), reason: 'flooding', until: ends }, bearer(OPERATOR));
      expect(banned.body.data?.banChatWallet).toMatchObject({ wallet, until: ends, reason: 'flooding', bannedBy: OPERATOR });

      const refusal = { code: 'CHAT_BANNED', details: { until: ends } };
      expect(await emitAck(writer, 'chat:send', { room, text: 'hello?' })).toMatchObject({ ok: false, error: refusal });
      expect(await emitAck(writer, 'chat:react', { messageId: target, emoji: '👍' })).toMatchObject({ ok: false, error: refusal });
      expect(await emitAck(writer, 'typing', { room })).toMatchObject({ ok: false, error: refusal });
      const overWs = await wsQuery(ws, SendChatMessageDocument, { room, text: 'hello?' });
      expect(overWs.errors?.[0]?.extensions).toMatchObject(refusal);
      // reading goes on
      expect(await emitAck(writer, 'room:join', { room })).toMatchObject({ ok: true });

      const list = await call('GET', '/api/admin/chat/bans', bearer(OPERATOR));
      expect(list.body.bans).toEqual(expect.arrayContaining([{ wallet, until: ends, reason: 'flooding', bannedBy: OPERATOR, bannedAt: expect.any(String) }]));
      expect((await gql(api.url, ChatBansDocument, {}, bearer(OPERATOR))).body.data?.chatBans.map((b) => b.wallet)).toContain(wallet);

      // a second ban replaces the first: until lifted (null)
      const forever = await call('POST', '/api/admin/chat/bans', bearer(OPERATOR), { wallet, reason: 'again' });
      expect(forever.body).toMatchObject({ wallet, until: null, reason: 'again' });
      expect(await emitAck(writer, 'chat:send', { room, text: 'hello?' })).toMatchObject({ ok: false, error: { code: 'CHAT_BANNED', details: { until: null } } });

      const lifted = await call('DELETE', `/api/admin/chat/bans/${wallet}`, bearer(OPERATOR));
      expect(lifted).toEqual({ status: 200, body: { wallet, unbanned: true } });
      expect(await emitAck(writer, 'chat:send', { room, text: 'after the ban' })).toMatchObject({ ok: true });
      expect((await wsQuery(ws, SendChatMessageDocument, { room, text: 'over graphql-ws too' })).errors).toBeUndefined();
      const notBanned = await call('DELETE', `/api/admin/chat/bans/${wallet}`, bearer(OPERATOR));
      expect(notBanned.status).toBe(404);
      expect((await gql(api.url, UnbanChatWalletDocument, { wallet }, bearer(OPERATOR))).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

      const bans = await auditRows('chat.ban', wallet);
      expect(bans).toHaveLength(2);
      expect(bans[0]).toMatchObject({ actor: OPERATOR, before: null, after: expect.objectContaining({ until: ends, reason: 'flooding' }) });
      expect(bans[1]).toMatchObject({ before: expect.objectContaining({ reason: 'flooding' }), after: expect.objectContaining({ until: null, reason: 'again' }) });
      const unbans = await auditRows('chat.unban', wallet);
      expect(unbans).toHaveLength(1);
      expect(unbans[0]!.after).toMatchObject({ liftedBy: OPERATOR });
    } finally {
      await ws.dispose();
    }
  });

  it('lapses at its until on its own, with no message', async () => {
    const wallet = newWallet();
    const writer = await socketOf(wallet);
    const ends = new Date(Date.now() + 1_500).toISOString();
    expect((await call('POST', '/api/admin/chat/bans', bearer(OPERATOR), { wallet, reason: 'cool down', until: ends })).status).toBe(200);
    expect(await emitAck(writer, 'chat:send', { room: 'global', text: 'now?' })).toMatchObject({ ok: false, error: { code: 'CHAT_BANNED' } });
    await until(async () => (await emitAck(writer, 'chat:send', { room: 'game:moderation-lapse', text: 'now?' })).ok, 'the ban to lapse', 10_000, 200);
    expect((await call('GET', '/api/admin/chat/bans', bearer(OPERATOR))).body.bans.map((b: { wallet: string }) => b.wallet)).not.toContain(wallet);
  });
});

describe('reports', () => {
  it('takes one report per wallet and message, queues them oldest first with the message and reporter, and dismisses them, audited', async () => {
    const room = 'game:moderation-reports';
    const author = newWallet();
    const writer = await socketOf(author);
    const [m1, m2] = [await send(writer, room, 'first offence'), await send(writer, room, 'second offence')];
    const [r1, r2] = [newWallet(), newWallet()];
    const first = await call('POST', '/api/chat/reports', bearer(r1), { messageId: m1, reason: 'rude' });
    expect(first).toEqual({ status: 200, body: { id: expect.any(String), messageId: m1, createdAt: expect.any(String), created: true } });
    const repeat = await call('POST', '/api/chat/reports', bearer(r1), { messageId: m1, reason: 'still rude' });
    expect(repeat.body).toEqual({ ...first.body, created: false });
    const viaGraphql = await gql(api.url, ReportChatMessageDocument, { messageId: m2, reason: 'spam' }, bearer(r2));
    expect(viaGraphql.body.data?.reportChatMessage).toMatchObject({ messageId: m2, created: true });
    expect((await call('POST', '/api/chat/reports', bearer(r2), { messageId: '999999999', reason: 'ghost' })).status).toBe(404);

    const queue = await call('GET', '/api/admin/chat/reports?limit=200', bearer(OPERATOR));
    expect(queue.status).toBe(200);
    const mine = (queue.body.items as Array<{ messageId: string }>).filter((r) => r.messageId === m1 || r.messageId === m2);
    expect(mine).toEqual([
      expect.objectContaining({ id: first.body.id, messageId: m1, room, messageText: 'first offence', messageAuthor: author, messageRemoved: false, reporter: r1, reason: 'rude', status: 'open', resolvedBy: null }),
      expect.objectContaining({ id: viaGraphql.body.data!.reportChatMessage.id, messageId: m2, messageText: 'second offence', reporter: r2, reason: 'spam', status: 'open' }),
    ]);
    const paged = await gql(api.url, ChatReportsDocument, { limit: 1 }, bearer(OPERATOR));
    const next = await call('GET', `/api/admin/chat/reports?limit=1&cursor=${paged.body.data!.chatReports.nextCursor}`, bearer(OPERATOR));
    expect(Number(next.body.items[0].id)).toBeGreaterThan(Number(paged.body.data!.chatReports.items[0]!.id));

    const dismissed = await call('POST', `/api/admin/chat/reports/${first.body.id}/dismiss`, bearer(OPERATOR), { note: 'banter' });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toMatchObject({ id: first.body.id, status: 'dismissed', resolvedBy: OPERATOR, note: 'banter', messageRemoved: false });
    const twice = await call('POST', `/api/admin/chat/reports/${first.body.id}/dismiss`, bearer(OPERATOR), {});
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({ code: 'CONFLICT', details: { status: 'dismissed' } });
    expect((await call('POST', '/api/admin/chat/reports/999999999/dismiss', bearer(OPERATOR), {})).status).toBe(404);
    const viaTwin = await gql(api.url, DismissChatReportDocument, { id: viaGraphql.body.data!.reportChatMessage.id }, bearer(OPERATOR));
    expect(viaTwin.body.data?.dismissChatReport).toMatchObject({ status: 'dismissed', note: null });

    const open = await call('GET', '/api/admin/chat/reports?limit=200', bearer(OPERATOR));
    expect((open.body.items as Array<{ messageId: string }>).filter((r) => r.messageId === m1 || r.messageId === m2)).toEqual([]);
    const closed = await call('GET', '/api/admin/chat/reports?status=dismissed&limit=200', bearer(OPERATOR));
    expect((closed.body.items as Array<{ id: string }>).map((r) => r.id)).toEqual(expect.arrayContaining([first.body.id]));
    const rows = await auditRows('chat.dismiss_report', first.body.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: OPERATOR, before: expect.objectContaining({ status: 'open' }), after: expect.objectContaining({ status: 'dismissed', note: 'banter' }) });
  });

  it('refuses a wallet over CHAT.REPORT_RATE_LIMIT_MAX reports in a window with RATE_LIMITED', async () => {
    const writer = await socketOf(newWallet());
    const ids: string[] = [];
    for (let i = 0; i <= api.config.chat.reportsPerWindow; i++) ids.push(await send(writer, 'game:moderation-report-limit', `m${i}`));
    const reporter = bearer(newWallet());
    const answers = await Promise.all(ids.map((messageId) => call('POST', '/api/chat/reports', reporter, { messageId, reason: 'spam' })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(api.config.chat.reportsPerWindow);
    expect(answers.filter((a) => a.status === 429).map((a) => a.body.error.details.scope)).toEqual(['chat-reports']);
  });
});

describe('operators acting at once', () => {
  it('of parallel removals, unbans and dismissals of one target exactly one applies (one audit row); the others answer 404 or 409', async () => {
    const writer = await socketOf(newWallet());
    const id = await send(writer, 'game:moderation-race', 'contested');
    const removals = await Promise.all(Array.from({ length: 5 }, () => call('DELETE', `/api/admin/chat/messages/${id}`, bearer(OPERATOR))));
    expect(removals.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404]);
    expect(await auditRows('chat.remove', id)).toHaveLength(1);

    const wallet = newWallet();
    await call('POST', '/api/admin/chat/bans', bearer(OPERATOR), { wallet, reason: 'race' });
    const unbans = await Promise.all(Array.from({ length: 5 }, () => call('DELETE', `/api/admin/chat/bans/${wallet}`, bearer(OPERATOR))));
    expect(unbans.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404]);
    expect(await auditRows('chat.unban', wallet)).toHaveLength(1);

    const reported = await send(writer, 'game:moderation-race', 'reported');
    const report = await call('POST', '/api/chat/reports', bearer(newWallet()), { messageId: reported, reason: 'race' });
    const dismissals = await Promise.all(Array.from({ length: 5 }, () => call('POST', `/api/admin/chat/reports/${report.body.id}/dismiss`, bearer(OPERATOR), {})));
    expect(dismissals.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await auditRows('chat.dismiss_report', report.body.id)).toHaveLength(1);
  });
});
