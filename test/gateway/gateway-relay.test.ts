import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair, type LoggedIn } from '../helpers/auth';
import { startChatPlatformFixture, type ChatPlatformFixture } from '../fixtures/chat-platform';
import { collect, connectSocket, emitAck, until } from './gateway-helpers';

describe('chat relay to the chat platform (loopback webhook fixture)', () => {
  let api: TestApi;
  let platform: ChatPlatformFixture;
  let alice: LoggedIn;
  let writer: Socket;
  let reader: Socket;

  beforeAll(async () => {
    platform = await startChatPlatformFixture();
    api = await startApi({ env: { 'SOCIAL.CHAT_PLATFORM.RELAY_WEBHOOK_URL': platform.webhookUrl } });
    alice = await loginWithKeypair(api.url);
    writer = await connectSocket(api.url, { token: alice.accessToken });
    reader = await connectSocket(api.url);
    await emitAck(reader, 'room:join', { room: 'global' });
  });
  afterAll(async () => {
    writer?.close();
    reader?.close();
    await api?.close();
    await platform?.close();
  });

  it('relays global-room messages in the webhook format, without pinging anyone; game rooms stay local', async () => {
    await emitAck(writer, 'chat:send', { room: 'game:local-only', text: 'not relayed' });
    expect(await emitAck(writer, 'chat:send', { room: 'global', text: 'hello @everyone' })).toMatchObject({ ok: true });
    await until(() => platform.received.length === 1, 'the relayed message');
    expect(platform.received[0]).toEqual({
      content: 'hello @everyone',
      username: `${alice.address.slice(0, 6)}…${alice.address.slice(-4)}`,
      allowedMentions: { parse: [] },
    });
  });

  it('with the platform down, local chat goes on at once and the relay is retried until it is back', async () => {
    const seen = collect<{ text: string }>(reader, 'chat:message');
    platform.state.down = true;
    const attemptsBefore = platform.state.attempts;
    const ack = await emitAck(writer, 'chat:send', { room: 'global', text: 'during the outage' });
    expect(ack).toMatchObject({ ok: true, message: { text: 'during the outage' } });
    await until(() => seen.some((m) => m.text === 'during the outage'), 'local delivery during the outage');
    await until(() => platform.state.attempts >= attemptsBefore + 2, 'the relay to retry');
    expect(platform.received.map((m) => m.content)).not.toContain('during the outage');
    platform.state.down = false;
    await until(() => platform.received.some((m) => m.content === 'during the outage'), 'the relay after recovery', 15_000);
    expect(api.logs.lines.some((l) => l.msg === 'chat relay: retrying')).toBe(true);
  });

  it("honours the platform's 429 retry_after and delivers once", async () => {
    platform.state.rateLimitNext = 2;
    await emitAck(writer, 'chat:send', { room: 'global', text: 'rate limited at first' });
    await until(() => platform.received.some((m) => m.content === 'rate limited at first'), 'delivery after the 429s');
    expect(platform.state.rateLimitNext).toBe(0);
    expect(platform.received.filter((m) => m.content === 'rate limited at first')).toHaveLength(1);
  });

  it('never logs the webhook URL or its token (not even scrubbed: the relay logs the host only)', () => {
    expect(api.logs.raw.join('\n')).not.toContain(platform.token);
    const relayLines = api.logs.lines.filter((l) => l.component === 'chat-platform');
    expect(relayLines.length).toBeGreaterThan(0);
    expect(JSON.stringify(relayLines)).not.toContain('[redacted]');
    expect(relayLines.every((l) => l.host === new URL(platform.webhookUrl).host)).toBe(true);
  });
});
