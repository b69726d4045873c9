// A container's life as the orchestrator sees it: docker stop under load drains and exits 0; a start
// that cannot work exits with the code and the one-line message it has outside a container.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_MAIN_ARGS } from '../helpers/built-main';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/db';
import { testEnv } from '../helpers/env';
import { freePort } from '../helpers/store';
import { until } from '../helpers/until';
import { buildImage, needsContainers, removeAll, runContainer, runToEnd } from '../helpers/containers';

const run = needsContainers();
const JWT_SECRET = 'container-test-jwt-secret-0123456789abcdef';
const DRAIN_DELAY_MS = 1000;
const REQUEST_TIMEOUT_MS = 5000;

interface Outcome {
  statuses: Map<number, number>;
  errors: Map<string, number>;
}

/** Keeps `concurrency` request loops on `url` until `stopped()`; what they got. */
async function steadyLoad(url: string, concurrency: number, stopped: () => boolean): Promise<Outcome> {
  const outcome: Outcome = { statuses: new Map(), errors: new Map() };
  const count = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!stopped()) {
        try {
          const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
          await res.arrayBuffer();
          count(outcome.statuses, res.status);
        } catch (err) {
          const cause = (err as { cause?: { code?: string } }).cause;
          count(outcome.errors, cause?.code ?? (err as Error).name);
          // After the listener closes nothing answers here (no edge in front): back off a little.
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    }),
  );
  return outcome;
}

/** Runs dist/main.js on this machine as the container would; exit code and output. */
function runOutside(args: string[], env: Record<string, string>): Promise<{ exitCode: number; output: string }> {
  const dataDir = mkdtempSync(`${tmpdir()}/outside-`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...BUILT_MAIN_ARGS, ...args], {
      env: { NODE_ENV: 'production', PATH: process.env.PATH ?? '', HOME: dataDir, DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: string[] = [];
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (c: Buffer) => chunks.push(c.toString()));
    child.on('exit', (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      resolve({ exitCode: code ?? -1, output: chunks.join('') });
    });
  });
}

/** The line a start-up problem prints (the last line of output that is not a JSON log line). */
const problemLine = (output: string) =>
  output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('{'))
    .pop();

describe.runIf(run)('container lifecycle', () => {
  let db: ScratchDatabase;

  beforeAll(async () => {
    await buildImage();
    db = await createScratchDatabase(testEnv.databaseUrl!, { migrated: true });
  }, 900_000);

  afterAll(async () => {
    await removeAll();
    await db?.drop();
  });

  it('docker stop under steady load: exit 0 within the drain, no connection reset, readiness 503 before the listener closes', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const api = await runContainer({
      name: 'api-stop',
      env: {
        JWT_SECRET,
        PAYLOAD_SECRET: 'container-test-payload-secret',
        DATABASE_URL: db.url,
        SHARED_STORE_URL: testEnv.redisUrl!,
        SHARED_STORE_KEY_PREFIX: `ct-stop-${process.pid}:`,
        GENERAL_PORT: String(port),
        HTTP_DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
        // Admission would answer 429 to this loop long before the stop: not what is measured here.
        'HTTP.RATE_LIMIT_MAX': '1000000',
      },
    });
    await until(() => fetch(`${origin}/api/health/ready`).then((r) => r.ok, () => false), 'the API ready', 60_000, 50);
    let stopped = false;
    const load = steadyLoad(`${origin}/api/quests/list`, 8, () => stopped);
    const readiness: number[] = [];
    const watchReadiness = (async () => {
      while (!stopped) {
        readiness.push(await fetch(`${origin}/api/health/ready`).then((r) => r.status, () => 0));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    await until(async () => (await api.logs()).length > 0, 'the API serving load', 5_000);
    const stop = await api.stop(30);
    stopped = true;
    const outcome = await load;
    await watchReadiness;
    const served = outcome.statuses.get(200) ?? 0;
    console.log(`docker stop under load: exit ${stop.exitCode} after ${stop.seconds.toFixed(2)} s; statuses ${JSON.stringify([...outcome.statuses])}, errors ${JSON.stringify([...outcome.errors])}`);
    expect(stop.exitCode).toBe(0);
    expect(stop.seconds).toBeLessThan((DRAIN_DELAY_MS + REQUEST_TIMEOUT_MS) / 1000 + 7.5);
    expect(served).toBeGreaterThan(0);
    // Every request that reached the process was answered; none was cut.
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'TimeoutError']) expect(outcome.errors.get(code) ?? 0, code).toBe(0);
    expect([...outcome.statuses.keys()].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    // The orchestrator's readiness probe saw 503 while the process still answered.
    expect(readiness).toContain(503);
  });

  const cases: [string, string[], Record<string, string>, number, RegExp][] = [
    ['a role that does not exist', ['--role', 'nope'], { JWT_SECRET, PAYLOAD_SECRET: 'p' }, 78, /nope/],
    ['no JWT_SECRET in production', ['--role', 'api'], { PAYLOAD_SECRET: 'p' }, 78, /JWT_SECRET/],
    ['an unreachable database', ['--role', 'api'], { JWT_SECRET, PAYLOAD_SECRET: 'p', DATABASE_URL: 'postgres://postgres@127.0.0.1:9/none' }, 69, /DATABASE_URL|database/i],
  ];
  it.each(cases)('%s: the same exit code and message as outside a container', async (_what, args, env, code, message) => {
    const inside = await runToEnd({ name: `problem-${code}-${args.join('')}`, args, env: { ...env, SHARED_STORE_URL: testEnv.redisUrl! } });
    const outside = await runOutside(args, { ...env, SHARED_STORE_URL: testEnv.redisUrl! });
    expect(inside.exitCode, inside.output).toBe(code);
    expect(outside.exitCode, outside.output).toBe(code);
    expect(problemLine(inside.output)).toMatch(message);
    expect(problemLine(inside.output)).toBe(problemLine(outside.output));
  });
});
