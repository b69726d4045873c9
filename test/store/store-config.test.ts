import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createSharedStore, type SharedStore } from '../../src/store';
import { captureLogger, hasRedisServer, requireServices, ThrowawayRedis } from '../helpers/store';

/**
 * Start-up as a user configures it: the settings go through loadConfig and into the store
 * exactly as `src/main.ts` passes them (`{ ...config.store, logger }`).
 */
const opened: SharedStore[] = [];
let server: ThrowawayRedis | undefined;
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await server?.kill();
  server = undefined;
});

async function startWith(env: Record<string, string>) {
  const config = loadConfig({ envDir: '/nonexistent', env });
  const log = captureLogger();
  const store = await createSharedStore({ ...config.store, logger: log.logger });
  opened.push(store);
  return { store, log };
}

describe.skipIf(!hasRedisServer && !requireServices)('shared store selection from settings', () => {
  it('runs on Redis when only REDIS_URL is set', async () => {
    server = await ThrowawayRedis.start();
    const { store, log } = await startWith({ REDIS_URL: server.url, SHARED_STORE_KEY_PREFIX: 'startup:' });
    expect(store.kind).toBe('redis');
    expect(store.active).toBe('redis');
    expect(log.warnings()).toHaveLength(0);
    // It really talks to that server: its replica heartbeat and a counter are there.
    await store.hit('probe', 60_000);
    const inspect = server.client();
    expect(await inspect.get('startup:probe')).toBe('1');
    expect(await inspect.zcard('startup:store:replicas')).toBe(1);
    inspect.disconnect();
  });

  it('honours an explicit CACHE_STORE=memory next to a Redis address, with one warning that names the settings', async () => {
    server = await ThrowawayRedis.start();
    const { store, log } = await startWith({ CACHE_STORE: 'memory', REDIS_URL: server.url });
    expect(store.kind).toBe('memory');
    const warnings = log.warnings();
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toContain('CACHE_STORE=memory');
    expect(warnings[0].msg).toContain('REDIS_URL');
    expect(JSON.stringify(log.lines)).not.toContain(server.url);
    await store.hit('probe', 60_000);
    const inspect = server.client();
    expect(await inspect.dbsize()).toBe(0);
    inspect.disconnect();
  });
});
