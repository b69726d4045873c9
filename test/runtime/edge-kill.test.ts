// A replica SIGKILLed behind the edge (`npm run start:cluster`, HAProxy) with requests in flight on
// it: every client still gets an HTTP answer, the idempotent ones retried elsewhere (200) and the
// others the edge's 502 in the API's error shape; never a reset or a hang-up.
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/env';
import { haproxyVersion, startTestCluster, type TestCluster } from '../helpers/cluster';
import { until } from '../helpers/until';

const servicesPresent = Boolean(testEnv.databaseUrl && testEnv.redisUrl);
if (testEnv.requireServices && (!haproxyVersion || !servicesPresent)) throw new Error('REQUIRE_SERVICES=1 but haproxy, DATABASE_URL or SHARED_STORE_URL is missing');

type Outcome = { status: number; body: string } | { error: string };

function send(agent: Agent, url: string, method: string, body?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { agent, method, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', (err) => resolve({ error: `${(err as NodeJS.ErrnoException).code ?? err.message} (in the body)` }));
    });
    req.on('error', (err) => resolve({ error: `${(err as NodeJS.ErrnoException).code ?? err.message} port=${req.socket?.localPort} reused=${req.reusedSocket} at=${new Date().toISOString()}` }));
    req.end(body);
  });
}

const whoami = async (port: number) => {
  const a = await send(new Agent(), `http://127.0.0.1:${port}/test/whoami`, 'GET');
  return 'status' in a && a.status === 200 ? (JSON.parse(a.body) as { pid: number; slowInFlight: number }) : null;
};

describe.runIf(haproxyVersion && servicesPresent)('SIGKILL of a replica with requests in flight through the edge', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster({ replicas: 2, env: { 'HTTP.RATE_LIMIT_MAX': '1000000' } });
  }, 90_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 30_000);

  it('every client gets an HTTP answer: 200, or 502 in the error shape; no reset', async () => {
    const { edgeUrl, apiPorts } = cluster;
    const outcomes: Array<{ op: string; outcome: Outcome }> = [];
    let running = true;
    // 8 keep-alive clients from their own addresses (the edge limits per IP): slow POSTs that are
    // surely in flight at the kill, GraphQL POSTs and GETs on reused connections.
    const client = async (c: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 4, localAddress: `127.0.0.${40 + c}` });
      for (let i = 0; running; i++) {
        const op = ['slow', 'graphql', 'health'][i % 3]!;
        const outcome =
          op === 'slow'
            ? await send(agent, `${edgeUrl}/test/slow?ms=1500`, 'POST', '{}')
            : op === 'graphql'
              ? await send(agent, `${edgeUrl}/graphql`, 'POST', '{"query":"{ serverStatus { status } }"}')
              : await send(agent, `${edgeUrl}/api/health`, 'GET');
        outcomes.push({ op, outcome });
      }
      agent.destroy();
    };
    const clients = Array.from({ length: 8 }, (_, c) => client(c));

    const victim = apiPorts[0]!;
    await until(async () => ((await whoami(victim))?.slowInFlight ?? 0) >= 2, 'slow requests in flight on the victim', 20_000, 50);
    const { pid } = (await whoami(victim))!;
    process.kill(pid, 'SIGKILL');
    const killedAt = outcomes.length;
    // load goes on until the edge has answered well past the kill (the survivor serves it all)
    await until(() => outcomes.length >= killedAt + 60, 'answers after the kill', 30_000, 50);
    running = false;
    await Promise.all(clients);

    const errors = outcomes.filter((o) => 'error' in o.outcome);
    expect(errors, JSON.stringify(errors)).toEqual([]);
    const answers = outcomes.map((o) => ({ op: o.op, ...(o.outcome as { status: number; body: string }) }));
    expect(answers.filter((a) => a.status !== 200 && a.status !== 502), JSON.stringify(answers.filter((a) => a.status !== 200))).toEqual([]);
    const badGateways = answers.filter((a) => a.status === 502);
    // the slow POSTs held by the killed replica: not retried (not idempotent), answered 502
    expect(badGateways.length).toBeGreaterThanOrEqual(2);
    for (const a of badGateways) {
      expect(JSON.parse(a.body)).toEqual({ error: { code: 'UPSTREAM_UNAVAILABLE', message: expect.any(String), requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    }
    // idempotent GETs in flight on the victim were retried on the survivor
    expect(answers.filter((a) => a.op === 'health').every((a) => a.status === 200)).toBe(true);
    console.info(`edge kill: ${answers.length} answers, ${badGateways.length} × 502 (${badGateways.map((a) => a.op).join(', ')}), 0 resets`);
  }, 60_000);
});
