// Our API as main.ts builds it (createRuntime), on the bench database.
// --cache-ttl=<ms>: the leaderboard service's per-process cache (0 = every read goes to the database).
// --response-cache=off: the GraphQL response cache never stores (every request executes).
// --admission=off: without the admission layer (bench section "admission").
import 'reflect-metadata';
import type { KeyValueCache } from '../../../src/store/kv-cache';
import { compileWasmBaselineOnly, limitHeapGrowth } from '../../../src/runtime/heap';
import { collectWhenIdle } from '../../../src/runtime/idle-gc';
import { announce, benchConfig, benchLogger, flag } from './common';

const neverStores: KeyValueCache = { get: async () => undefined, set: async () => undefined, delete: async () => false };

// As src/main.ts runs it (src/runtime/process.ts: V8 settings, the idle collection): tracing (OTEL_EXPORTER_OTLP_ENDPOINT set) before the runtime's imports.
limitHeapGrowth();
compileWasmBaselineOnly();
collectWhenIdle();
const config = benchConfig();
if (config.tracing) (await import('../../../src/observability/tracing')).startTracing(config.tracing, 'platform-api');
const { createRuntime } = await import('../../../src/runtime');
const runtime = await createRuntime(config, {
  roles: new Set(['api']),
  logger: benchLogger(),
  version: 'bench',
  admission: flag('admission', 'on') !== 'off',
  leaderboardCacheTtlMs: Number(flag('cache-ttl', '30000')),
  ...(flag('response-cache', 'on') === 'off' ? { responseCache: { cache: neverStores, backend: 'memory' as const, close: async () => undefined } } : {}),
  listen: { port: 0, host: '127.0.0.1' },
  extraRoutes: (app) => {
    app.get('/bench/raw/trivial', async () => ({ data: { __typename: 'Query' } }));
  },
});
await announce({ url: runtime.url! }, () => runtime.close());
