/**
 * Audits a deployment's public web surfaces against scripts/surfaces-audit/rules.ts:
 *   npm run surfaces:audit -- --network mainnet --app-url https://platform.example \
 *     [--blog-url …] [--docs-url …] [--house-url …] [--www-url …] [--legacy-network-url …] [--docs-legacy-url …] \
 *     [--connect-to https://public.example=http://127.0.0.1:8080 …] [--concurrency 4] [--timeout-ms 10000] [--json]
 * Exit 0: no violation; 1: violations (one line each, then a summary table); 2: bad arguments.
 */
import { parseArgs } from 'node:util';
import { auditSurfaces } from './surfaces-audit/audit';
import { formatReport } from './surfaces-audit/audit-format';

const USAGE = 'usage: npm run surfaces:audit -- --network <name> --app-url <url> [--blog-url <url>] [--docs-url <url>] [--house-url <url>] [--www-url <url>] [--legacy-network-url <url>] [--docs-legacy-url <url>] [--connect-to <public-origin>=<origin> …] [--concurrency n] [--timeout-ms n] [--json]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function url(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) fail(`--${name}: "${value}" is not an http(s) URL`);
  return value.replace(/\/+$/, '');
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) fail(`--${name}: "${value}" is not a positive integer`);
  return n;
}

/** `--connect-to https://public.example=http://127.0.0.1:8080`, repeatable. */
function connectTo(pairs: string[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const pair of pairs) {
    const [from, to] = pair.split('=');
    map[url('connect-to', from) ?? fail('--connect-to: missing origin')] = url('connect-to', to) ?? fail(`--connect-to: "${pair}" is not <public-origin>=<origin>`);
  }
  return map;
}

let values: Record<string, string | string[] | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      network: { type: 'string' },
      'app-url': { type: 'string' },
      'blog-url': { type: 'string' },
      'docs-url': { type: 'string' },
      'house-url': { type: 'string' },
      'www-url': { type: 'string' },
      'legacy-network-url': { type: 'string' },
      'docs-legacy-url': { type: 'string' },
      'connect-to': { type: 'string', multiple: true },
      concurrency: { type: 'string' },
      'timeout-ms': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  }));
} catch (err) {
  fail((err as Error).message);
}
const str = (name: string) => values[name] as string | undefined;
const network = str('network') ?? fail('--network is required');
const appUrl = url('app-url', str('app-url')) ?? fail('--app-url is required');

const report = await auditSurfaces({
  network,
  appUrl,
  blogUrl: url('blog-url', str('blog-url')) ?? `${appUrl}/blog`,
  docsUrl: url('docs-url', str('docs-url')) ?? `${appUrl}/docs`,
  houseUrl: url('house-url', str('house-url')),
  wwwUrl: url('www-url', str('www-url')),
  legacyNetworkUrl: url('legacy-network-url', str('legacy-network-url')),
  docsLegacyUrl: url('docs-legacy-url', str('docs-legacy-url')),
  concurrency: positive('concurrency', str('concurrency'), 4),
  timeoutMs: positive('timeout-ms', str('timeout-ms'), 10_000),
  connectTo: connectTo((values['connect-to'] as string[] | undefined) ?? []),
});
process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
process.exitCode = report.violations.length ? 1 : 0;
