/**
 * The domain registry (src/services/domains.ts) and the adapters keyed by its names agree: names
 * are unique, each domain comes after the domains it needs, every resolver, route and job list
 * belongs to a registered domain that creates services, and no two domains create the same
 * `services.<key>` (createDomains on a real database and store).
 */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { domainJobs } from '../../src/jobs';
import { domainRoutes } from '../../src/http/rest';
import { domainResolvers } from '../../src/resolvers';
import { createDomains, domains, type DomainName } from '../../src/services';
import { createSharedStore, type SharedStore } from '../../src/store';
import { createBus } from '../../src/store';
import { createTestDb, testLogger, type TestDb } from '../helpers/db';

const names = domains.map((d) => d.name);
const adapters = { resolvers: domainResolvers, routes: domainRoutes, jobs: domainJobs };

let testDb: TestDb;
let store: SharedStore;
let created: Map<DomainName, object>;

beforeAll(async () => {
  testDb = await createTestDb();
  store = await createSharedStore({ cacheStore: 'memory', logger: testLogger });
  const config = loadConfig({ envDir: '/nonexistent', env: { NODE_ENV: 'test', CACHE_STORE: 'memory' } });
  created = await createDomains({ config, logger: testLogger, db: testDb.db, store, bus: createBus(store, { logger: testLogger }), version: 'test' });
}, 60_000);

afterAll(async () => {
  await store?.close();
  await testDb?.cleanup();
});

describe('domain registry', () => {
  it('names each domain once and lists it after the domains it needs', () => {
    expect(new Set(names).size).toBe(names.length);
    domains.forEach((domain, i) => {
      for (const need of domain.needs) expect(names.indexOf(need.name), `${domain.name} needs ${need.name}`).toBeLessThan(i);
    });
  });

  it.each(Object.entries(adapters))('registers %s only under domain names that create services', (_, byDomain) => {
    for (const name of Object.keys(byDomain)) {
      expect(names, name).toContain(name);
      expect(Object.keys(created.get(name as DomainName) ?? {}), name).not.toHaveLength(0);
    }
  });

  it('registers each resolver class and route function under one domain only', () => {
    for (const lists of [Object.values(domainResolvers), Object.values(domainRoutes)]) {
      const all: unknown[] = lists.flat();
      expect(new Set(all).size).toBe(all.length);
    }
  });

  it.each([
    ['src/resolvers', /Resolver$/, Object.values(domainResolvers)],
    ['src/http/rest', /Routes$/, Object.values(domainRoutes)],
  ] as const)('registers every %s export named like an adapter under a domain', async (dir, pattern, lists) => {
    const registered = new Set<unknown>(lists.flat());
    const files = readdirSync(resolve(import.meta.dirname, '../..', dir)).filter((f) => f.endsWith('.ts') && f !== 'index.ts');
    for (const file of files) {
      const module = (await import(resolve(import.meta.dirname, '../..', dir, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) if (pattern.test(name) && typeof value === 'function') expect(registered.has(value), `${dir}/${file} ${name}`).toBe(true);
    }
  });

  it('creates every domain, each with its own services.<key> names', () => {
    expect([...created.keys()]).toEqual(names);
    const keys = [...created.values()].flatMap((services) => Object.keys(services));
    expect(new Set(keys).size).toBe(keys.length);
    // The object shape adapters and tests use.
    expect(keys).toEqual(expect.arrayContaining(['quests', 'leaderboards', 'chat', 'presence', 'tokens', 'operatorToken', 'chainWriter', 'giveaways', 'welcomeWheel', 'readCache', 'jobRuns']));
  });
});
