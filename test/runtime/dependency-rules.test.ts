/**
 * The layer rules of .dependency-cruiser.cjs fire: each probe (one import a rule forbids, written
 * into a scratch tree shaped like the repository) is refused under that rule's name, and each
 * import the rules allow on purpose (their commented exceptions) passes. `npm run check:deps`
 * runs the same rules on the real tree.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterEach, describe, expect, it } from 'vitest';

const { forbidden } = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as { forbidden: IForbiddenRuleType[] };

const trees: string[] = [];
afterEach(() => {
  for (const dir of trees.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * The rules broken when `from` imports `to` (both paths from the repository root; `to` may be a
 * package's `node_modules/<name>/index.js`, imported by its name), in a tree holding those files only.
 */
async function brokenRules(from: string, to: string): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
  trees.push(root);
  const packageName = /^node_modules\/([^/]+)\/index\.js$/.exec(to)?.[1];
  const path = relative(dirname(from), to).replace(/\.ts$/, '');
  const specifier = packageName ?? (path.startsWith('.') ? path : `./${path}`);
  const files: Array<[string, string]> = [
    [to, 'export const probe = 1;\n'],
    [from, `import { probe } from '${specifier}';\nexport const uses = probe;\n`],
  ];
  if (packageName) files.push([`node_modules/${packageName}/package.json`, JSON.stringify({ name: packageName, main: 'index.js' })]);
  for (const [file, text] of files) {
    mkdirSync(join(root, dirname(file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  const { output } = await cruise([from], { validate: true, ruleSet: { forbidden }, tsPreCompilationDeps: true, baseDir: root });
  const violations = (output as ICruiseResult).summary.violations;
  expect(violations.every((v) => v.from === from && v.to === to)).toBe(true);
  return violations.map((v) => v.rule.name);
}

describe('dependency rules', () => {
  it.each([
    // Services speak no transport.
    ['services-import-no-transport-library', 'src/services/quests/probe.ts', 'node_modules/fastify/index.js'],
    ['services-import-no-transport-library', 'src/services/chat/probe.ts', 'node_modules/graphql/index.js'],
    ['services-import-no-transport-library', 'src/services/quests/probe.ts', 'src/fastify/route-hooks.ts'],
    // Transports do not import each other.
    ['http-imports-no-other-transport', 'src/http/rest/probe.ts', 'src/graphql/context.ts'],
    ['http-imports-no-other-transport', 'src/http/probe.ts', 'src/gateway/socket-io.ts'],
    ['http-imports-no-other-transport', 'src/http/probe.ts', 'src/resolvers/users.ts'],
    ['graphql-imports-no-other-transport', 'src/graphql/probe.ts', 'src/http/timeout.ts'],
    ['graphql-imports-no-other-transport', 'src/graphql/probe.ts', 'src/gateway/caps.ts'],
    ['graphql-imports-no-other-transport', 'src/resolvers/probe.ts', 'src/http/rest/users.ts'],
    ['gateway-imports-no-other-transport', 'src/gateway/probe.ts', 'src/http/app.ts'],
    ['gateway-imports-no-other-transport', 'src/gateway/probe.ts', 'src/graphql/apollo.ts'],
    ['gateway-imports-no-other-transport', 'src/gateway/probe.ts', 'src/resolvers/chat.ts'],
    // scripts/ and bench/ reach a domain through its index only; src/ imports neither (nor test/).
    ['scripts-see-domains-only-through-their-index', 'scripts/probe.ts', 'src/services/quests/service.ts'],
    ['scripts-see-domains-only-through-their-index', 'bench/probe.ts', 'src/services/leaderboards/service.ts'],
    ['src-imports-no-tool', 'src/services/quests/probe.ts', 'scripts/build.ts'],
    ['src-imports-no-tool', 'src/http/probe.ts', 'bench/seed.ts'],
    ['src-imports-no-tool', 'src/runtime/probe.ts', 'test/helpers/db.ts'],
  ])('%s refuses %s → %s', async (rule, from, to) => {
    expect(await brokenRules(from, to)).toContain(rule);
  });

  it.each([
    ['src/http/app.ts composes the app', 'src/http/app.ts', 'src/graphql/apollo.ts'],
    ['src/http/app.ts composes the app', 'src/http/app.ts', 'src/gateway/socket-io.ts'],
    ['graphql-ws executes through the GraphQL policy', 'src/gateway/graphql-ws.ts', 'src/graphql/policy.ts'],
    ['graphql-ws delivers the broadcast extension', 'src/gateway/broadcast-results.ts', 'src/graphql/broadcast.ts'],
    ['resolvers are the GraphQL transport', 'src/resolvers/users.ts', 'src/graphql/context.ts'],
    ['every transport reads the Fastify plumbing', 'src/gateway/socket-io.ts', 'src/fastify/drain.ts'],
    ['every transport reads the Fastify plumbing', 'src/graphql/cached-answers.ts', 'src/fastify/route-hooks.ts'],
    ['a script reaches a domain through its index', 'scripts/quests-seed.ts', 'src/services/quests/index.ts'],
    ['a script composes like the root', 'scripts/start-cluster.ts', 'src/runtime/supervisor.ts'],
    ['the reference servers load no whole domain', 'bench/reference/handwritten.ts', 'src/services/quests/periods.ts'],
  ])('allows on purpose: %s (%s → %s)', async (_, from, to) => {
    expect(await brokenRules(from, to)).toEqual([]);
  });
});
