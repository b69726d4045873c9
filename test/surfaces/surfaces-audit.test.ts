/** The audit (scripts/surfaces-audit/audit.ts, scripts/surfaces-audit.ts) against a good and a broken deployment on loopback. */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditSurfaces, type AuditReport } from '../../scripts/surfaces-audit/audit';
import { RULES } from '../../scripts/surfaces-audit/rules';
import { startSurfacesSite, type FixtureSite } from '../fixtures/surfaces-site';
import { builtScriptArgs } from '../helpers/built-main';

const sites: Record<'goodMainnet' | 'goodTestnet' | 'brokenMainnet' | 'brokenTestnet', FixtureSite> = {} as never;

beforeAll(async () => {
  [sites.goodMainnet, sites.goodTestnet, sites.brokenMainnet, sites.brokenTestnet] = await Promise.all([
    startSurfacesSite({ network: 'mainnet' }),
    startSurfacesSite({ network: 'testnet' }),
    startSurfacesSite({ network: 'mainnet', broken: true }),
    startSurfacesSite({ network: 'testnet', broken: true }),
  ]);
});
afterAll(async () => {
  await Promise.all(Object.values(sites).map((s) => s?.close()));
});

const audit = (s: FixtureSite): Promise<AuditReport> => auditSurfaces({ ...s, concurrency: 3, timeoutMs: 5000 });
const pairs = (list: { rule: string; url: string }[]) => list.map((v) => `${v.rule} ${v.url}`).sort();

function cli(s: FixtureSite, extra: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = ['--network', s.network, '--app-url', s.appUrl, '--blog-url', s.blogUrl, '--docs-url', s.docsUrl, '--house-url', s.houseUrl];
  args.push('--www-url', s.wwwUrl, '--legacy-network-url', s.legacyNetworkUrl, '--docs-legacy-url', s.docsLegacyUrl, ...extra);
  return new Promise((resolve) => {
    execFile(process.execPath, [...builtScriptArgs('scripts/surfaces-audit.ts'), ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
  });
}

describe('surfaces audit', () => {
  it('finds nothing on a deployment built by the rules, on mainnet and off it', async () => {
    for (const s of [sites.goodMainnet, sites.goodTestnet]) {
      const report = await audit(s);
      expect(report.violations, `${s.network}: ${JSON.stringify(report.violations, null, 1)}`).toEqual([]);
      // It did crawl: index, 3 child sitemaps, house sitemap, 4 robots files, llms, 4 route redirects, 3 host redirects, pages.
      expect(report.requests).toBeGreaterThanOrEqual(s.network === 'mainnet' ? 24 : 18);
    }
  });

  it('the broken sites hold one violation of each rule between them', () => {
    const rules = [...sites.brokenMainnet.seeded, ...sites.brokenTestnet.seeded].map((s) => s.rule);
    expect([...new Set(rules)].sort()).toEqual(Object.keys(RULES).sort());
    expect(new Set(sites.brokenMainnet.seeded.map((s) => s.rule)).size).toBe(sites.brokenMainnet.seeded.length);
  });

  it('finds exactly the seeded violations on the broken mainnet site', async () => {
    const report = await audit(sites.brokenMainnet);
    expect(pairs(report.violations)).toEqual(pairs(sites.brokenMainnet.seeded));
    for (const v of report.violations) expect(v.detail.length).toBeGreaterThan(0);
    expect(Object.values(report.summary).reduce((a, b) => a + b, 0)).toBe(report.violations.length);
  });

  it('finds exactly the seeded violations on the broken non-mainnet site', async () => {
    const report = await audit(sites.brokenTestnet);
    expect(pairs(report.violations)).toEqual(pairs(sites.brokenTestnet.seeded));
  });

  it('reports an unreachable surface and a slow one as fetch violations within the timeout', async () => {
    const { createServer } = await import('node:http');
    const { listenOnLoopback } = await import('../fixtures/loopback');
    const hanging = createServer(() => undefined);
    const url = await listenOnLoopback(hanging);
    try {
      const report = await auditSurfaces({ network: 'testnet', appUrl: url, blogUrl: `${url}/blog`, docsUrl: `${url}/docs`, timeoutMs: 200, concurrency: 8 });
      expect(report.violations.length).toBeGreaterThan(0);
      expect(new Set(report.violations.map((v) => v.rule))).toEqual(new Set(['fetch']));
      expect(report.violations[0].detail).toBe('no answer within 200 ms');
    } finally {
      hanging.closeAllConnections();
      hanging.close();
    }
    const refused = await auditSurfaces({ network: 'testnet', appUrl: url, blogUrl: `${url}/blog`, docsUrl: `${url}/docs`, timeoutMs: 2000 });
    expect(refused.violations.find((v) => v.url === `${url}/robots.txt`)).toEqual({ rule: 'fetch', url: `${url}/robots.txt`, detail: 'ECONNREFUSED' });
  });

  it('CLI: one line per seeded violation with URL and rule, a summary table, exit 1; exit 0 on the good site', async () => {
    const bad = await cli(sites.brokenMainnet);
    expect(bad.code, bad.stderr).toBe(1);
    const lines = bad.stdout.split('\n');
    for (const { rule, url } of sites.brokenMainnet.seeded) {
      expect(lines.filter((l) => l.startsWith(`${url}  ${rule}  `)), `${rule} ${url}`).toHaveLength(1);
    }
    expect(lines.filter((l) => l.startsWith('http'))).toHaveLength(sites.brokenMainnet.seeded.length);
    expect(bad.stdout).toMatch(/^rule\s+hits\s+meaning$/m);
    expect(bad.stdout).toMatch(/^blog-h1\s+1\s+/m);
    expect(bad.stdout).toContain(`${sites.brokenMainnet.seeded.length} violations (mainnet,`);

    const good = await cli(sites.goodMainnet);
    expect(good.code, good.stdout + good.stderr).toBe(0);
    expect(good.stdout).toContain('0 violations (mainnet,');
  });

  it('CLI: --json gives the report; bad arguments exit 2', async () => {
    const json = await cli(sites.brokenTestnet, ['--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as AuditReport;
    expect(pairs(report.violations)).toEqual(pairs(sites.brokenTestnet.seeded));
    expect(report.summary['nonmainnet-robots']).toBe(1);

    const usage = await cli(sites.goodMainnet, ['--timeout-ms', 'soon']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--timeout-ms: "soon" is not a positive integer');
  });
});
