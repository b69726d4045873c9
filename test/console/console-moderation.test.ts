/**
 * Moderation through the operator console (/console/#moderation) in headless Chromium: a player
 * reports a chat message, the operator wallet removes it from the report queue, and a Socket.IO
 * client and a graphql-ws client both see it removed; the operator bans the author from the page
 * (its next message is refused with CHAT_BANNED) and lifts the ban. Each action is audited under
 * the operator's wallet.
 */
import { randomBytes } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { Browser } from 'playwright-core';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatMessageRemovedDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { haveChromium, launchChromium, signInToConsole } from '../helpers/browser';
import { wsClient, wsSubscribe } from '../helpers/client';
import { collect, connectSocket, emitAck, type Ack } from '../gateway/gateway-helpers';
import { until } from '../helpers/until';

const operatorKey = new Ed25519Keypair();
const OPERATOR = operatorKey.toSuiAddress();
let api: TestApi;
const sockets: Socket[] = [];

beforeAll(async () => {
  // a roomy message limit: the test sends probe messages until its subscription is live
  api = await startApi({ env: { OPERATOR_WALLETS: OPERATOR, CHAT_MESSAGE_RATE_LIMIT_MAX: '100' } });
}, 60_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await api?.close();
});

const newWallet = (): string => `0x${randomBytes(32).toString('hex')}`;
const bearer = (wallet: string) => ({ authorization: `Bearer ${api.services.tokens.signAccess(wallet)}` });
const socketOf = async (wallet?: string) => {
  const s = await connectSocket(api.url, { token: wallet ? api.services.tokens.signAccess(wallet) : undefined });
  sockets.push(s);
  return s;
};
const sentId = (ack: Ack): string => {
  if (!ack.ok) throw new Error(`chat:send refused: ${ack.error.code}`);
  return (ack.message as { id: string }).id;
};
const post = (path: string, headers: Record<string, string>, body: unknown) =>
  fetch(`${api.url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe.skipIf(!haveChromium())('moderation in the console', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  it('removes a reported message for Socket.IO and graphql-ws readers, then bans and unbans its author', async () => {
    const room = `game:console-${randomBytes(3).toString('hex')}`;
    const author = newWallet();
    const writer = await socketOf(author);
    const reader = await socketOf();
    expect(await emitAck(reader, 'room:join', { room })).toMatchObject({ ok: true });
    const removedOnSocketIo = collect<{ id: string; room: string }>(reader, 'chat:removed');
    const listener = wsClient(api.wsUrl);
    const sub = wsSubscribe(listener, ChatMessageRemovedDocument, { room });
    try {
      // The graphql-ws subscription goes live asynchronously: probes are removed until one is seen.
      await until(async () => {
        const probe = sentId(await emitAck(writer, 'chat:send', { room, text: 'probe' }));
        expect((await fetch(`${api.url}/api/admin/chat/messages/${probe}`, { method: 'DELETE', headers: bearer(OPERATOR) })).status).toBe(200);
        return sub.events.length > 0;
      }, 'the graphql-ws removal subscription to go live');

      const bad = sentId(await emitAck(writer, 'chat:send', { room, text: 'remove me' }));
      expect((await post('/api/chat/reports', bearer(newWallet()), { messageId: bad, reason: 'abusive' })).status).toBe(200);

      const { page, problems } = await signInToConsole(browser, api.url, operatorKey, 'moderation');
      const queue = page.getByRole('table', { name: 'Reports: open' });
      const row = queue.getByRole('row').filter({ hasText: 'remove me' });
      await row.waitFor();
      expect(await row.textContent()).toContain('abusive');
      expect(await row.textContent()).toContain(author);

      await row.getByRole('button', { name: `Remove message ${bad}` }).click();
      await page.getByText(`Removed message ${bad}.`).waitFor();
      await until(() => removedOnSocketIo.some((r) => r.id === bad), 'chat:removed on Socket.IO');
      await until(() => sub.events.some((e) => e.data?.chatMessageRemoved?.id === bad), 'chatMessageRemoved on graphql-ws');
      expect(removedOnSocketIo.find((r) => r.id === bad)).toMatchObject({ room });
      const history = (await (await fetch(`${api.url}/api/chat/message?room=${encodeURIComponent(room)}`)).json()) as { items: Array<{ id: string }> };
      expect(history.items.map((m) => m.id)).not.toContain(bad);
      // Out of the open queue (resolved by the removal).
      await page.getByText('Reports: open: none.').waitFor();

      // Ban the author from the page: its next message is refused on the socket.
      const banForm = page.getByRole('form', { name: 'Ban a wallet from chat' });
      await banForm.getByLabel('Wallet address').fill(author);
      await banForm.getByLabel('Reason').fill('abusive messages');
      await banForm.getByRole('button', { name: 'Ban', exact: true }).click();
      await page.getByText(`Banned ${author} from chat.`).waitFor();
      const bans = page.getByRole('table', { name: 'Wallets banned from chat' });
      await bans.getByRole('row').filter({ hasText: author }).waitFor();
      expect(await emitAck(writer, 'chat:send', { room, text: 'again' })).toMatchObject({ ok: false, error: { code: 'CHAT_BANNED' } });

      await bans.getByRole('button', { name: `Lift the ban of ${author}` }).click();
      await page.getByText(`Lifted the ban of ${author}.`).waitFor();
      await until(async () => (await emitAck(writer, 'chat:send', { room, text: 'welcome back' })).ok, 'the author writing again after the unban');

      const audit = await api.db.prisma.operatorAudit.findMany({ where: { OR: [{ target: bad }, { target: author }] }, orderBy: { id: 'asc' } });
      expect(audit.map((a) => [a.action, a.actor])).toEqual([
        ['chat.remove', OPERATOR],
        ['chat.ban', OPERATOR],
        ['chat.unban', OPERATOR],
      ]);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await listener.dispose();
    }
  }, 60_000);
});
