import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { migratedTarget, type MigratedTarget } from '../helpers/db';
import { testEnv } from '../helpers/env';
import { spawnMain, type SpawnedApi } from '../helpers/process';
import { waitFor } from '../helpers/store';
import { builtTestEntry } from '../helpers/built-main';

interface Outcome {
  label: string;
  sentBeforeSignal: boolean;
  status?: number;
  connection?: string;
  code?: string;
  error?: string;
  body?: string;
}

/** One HTTP request; the outcome is the status and headers, or the socket error's code. */
function request(url: string, opts: { path: string; method?: string; agent?: http.Agent; body?: string }, label: string, signalled: () => boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const sentBeforeSignal = !signalled();
    const req = http.request(`${url}${opts.path}`, { method: opts.method ?? 'GET', agent: opts.agent, headers: opts.body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ label, sentBeforeSignal, status: res.statusCode, connection: res.headers.connection, body }));
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ label, sentBeforeSignal, error: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ label, sentBeforeSignal, error: err.code ?? err.message }));
    req.end(opts.body);
  });
}

/** A raw HTTP/1.1 connection: write bytes when the test says so, read everything until close. */
function rawConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  let error: string | undefined;
  socket.on('data', (c) => (received += c));
  socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return {
    write: (text: string) => new Promise<void>((resolve) => socket.write(text, () => resolve())),
    received: () => received,
    closed: closed.then(() => ({ received, error })),
  };
}

/** A graphql-ws connection (acknowledged), reporting the close code it gets. */
async function openGraphqlWs(wsUrl: string): Promise<{ closeCode: Promise<number> }> {
  const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
  const closeCode = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'connection_ack') resolve();
    });
  });
  return { closeCode };
}

const SLOW_BODY = JSON.stringify({ query: '{ serverStatus { status } }', padding: 'x'.repeat(2000) });

describe('graceful shutdown of a real API process on SIGTERM', () => {
  let api: SpawnedApi;
  let target: MigratedTarget;

  beforeAll(async () => {
    target = await migratedTarget('shutdown-');
    api = await spawnMain(
      ['--role', 'api'],
      {
        // Not 'test': libraries behave differently there (Apollo installs its own SIGTERM handler outside tests).
        NODE_ENV: 'development',
        LOG_LEVEL: 'info',
        ...target.env,
        ...(testEnv.redisUrl ? { CACHE_STORE: 'redis', SHARED_STORE_URL: testEnv.redisUrl, SHARED_STORE_KEY_PREFIX: `test:${randomUUID()}:` } : { CACHE_STORE: 'memory' }),
      },
      90_000,
      builtTestEntry('api-entry-with-slow-routes'),
    );
  });
  afterAll(async () => {
    await api?.stop();
    await target?.cleanup();
  });

  it('finishes every in-flight request, answers 503 or refuses new ones, closes websockets with 1012 and exits 0 within 6 s', async () => {
    const url = api.url.replace('localhost', '127.0.0.1');
    let signalledAt = 0;
    const signalled = () => signalledAt > 0;
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 20 });

    // Open websocket clients.
    const sockets = await Promise.all([openGraphqlWs(`${url.replace('http', 'ws')}/graphql`), openGraphqlWs(`${url.replace('http', 'ws')}/graphql`)]);

    // A stream of short requests on fresh connections, running across the signal.
    const stream: Array<Promise<Outcome>> = [];
    let streaming = true;
    const streamer = (async () => {
      for (let i = 0; streaming; i++) {
        stream.push(request(url, { path: '/api/health' }, `stream-${i}`, signalled));
        await new Promise((r) => setTimeout(r, 25));
      }
    })();

    // In flight at the signal: slow handlers on kept-alive connections, and two requests whose body is still arriving.
    const slow = [2000, 3000, 4000].map((ms, i) => request(url, { path: `/test/slow?ms=${ms}`, agent: keepAlive }, `slow-${i}-${ms}ms`, signalled));
    const upload = rawConnection(url);
    await upload.write(`POST /test/upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(SLOW_BODY)}\r\n\r\n${SLOW_BODY.slice(0, 500)}`);
    const graphqlUpload = rawConnection(url);
    await graphqlUpload.write(`POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(SLOW_BODY)}\r\n\r\n${SLOW_BODY.slice(0, 500)}`);
    // A kept-alive connection: one full request, then the next one's headers only half sent.
    const keptAlive = rawConnection(url);
    await keptAlive.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitFor(() => keptAlive.received().includes('\r\n\r\n{'), 10_000, 'the first keep-alive response');
    await keptAlive.write('GET /api/health HTTP/1.1\r\nHost: x\r\n');
    await waitFor(async () => (await fetch(`${url}/test/in-flight`).then((r) => r.json())).inFlight === 4, 10_000, 'four tracked requests in flight');

    const exited = new Promise<number | null>((resolve) => api.child.once('exit', (code) => resolve(code)));
    signalledAt = Date.now();
    api.child.kill('SIGTERM');

    // Once the listener is closed (new connections refused), finish the half-sent requests.
    await waitFor(async () => (await request(url, { path: '/api/health' }, 'probe', signalled)).error === 'ECONNREFUSED', 5000, 'the listener to close');
    await keptAlive.write('\r\n');
    await upload.write(SLOW_BODY.slice(500));
    await graphqlUpload.write(SLOW_BODY.slice(500));

    const exitCode = await exited;
    const exitMs = Date.now() - signalledAt;
    streaming = false;
    await streamer;
    const outcomes = await Promise.all([...slow, ...stream]);

    // Exit: 0, within 6 s of the signal.
    expect(exitCode).toBe(0);
    expect(exitMs).toBeLessThan(6000);

    // In flight at the signal: every one answered 200, none reset; the answers say Connection: close.
    for (const o of await Promise.all(slow)) expect(o, o.label).toMatchObject({ status: 200, connection: 'close' });
    for (const raw of [await upload.closed, await graphqlUpload.closed]) {
      expect(raw.error).toBeUndefined();
      expect(raw.received).toMatch(/^HTTP\/1\.1 200 /);
      expect(raw.received.toLowerCase()).toContain('connection: close');
    }
    expect((await graphqlUpload.closed).received).toContain('"status":"ok"');

    // The request that arrived on a kept-alive connection during the drain: 503 SERVICE_UNAVAILABLE, Connection: close.
    const kept = await keptAlive.closed;
    expect(kept.error).toBeUndefined();
    const second = kept.received.slice(kept.received.indexOf('HTTP/1.1', 10));
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4)).error.code).toBe('SERVICE_UNAVAILABLE');

    // The stream: 200 before the signal; afterwards 200 (already accepted), 503 or connection refused.
    const afterSignal = outcomes.filter((o) => o.label.startsWith('stream') && !o.sentBeforeSignal);
    expect(afterSignal.length).toBeGreaterThan(0);
    const tally = afterSignal.reduce<Record<string, number>>((t, o) => ({ ...t, [String(o.status ?? o.error)]: (t[String(o.status ?? o.error)] ?? 0) + 1 }), {});
    console.log(`shutdown: exit ${exitCode} after ${exitMs} ms; requests sent after the signal: ${JSON.stringify(tally)}`);
    // One exception, TCP's: a connection the kernel completed but the process had not yet accepted
    // when the listener closed is reset by the kernel (never read, so never half served). With one
    // new connection every 25 ms, at most one can be caught in that window.
    for (const o of outcomes.filter((x) => x.label.startsWith('stream'))) {
      if (o.sentBeforeSignal) expect(o, o.label).toMatchObject({ status: 200 });
      else expect([200, 503, 'ECONNREFUSED', 'ECONNRESET']).toContain(o.status ?? o.error);
    }
    expect(afterSignal.filter((o) => o.error === 'ECONNRESET').length).toBeLessThanOrEqual(1);

    // Websocket clients: closed with 1012 (service restart).
    expect(await Promise.all(sockets.map((s) => s.closeCode))).toEqual([1012, 1012]);
    keepAlive.destroy();

    const out = api.output();
    expect(out).toMatch(/"msg":"shutting down"/);
    expect(out).toMatch(/"msg":"stopped"/);
  }, 60_000);
});
