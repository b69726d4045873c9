// The reference table: each scenario against our API and three reference servers on the same
// PostgreSQL data, measured one server at a time (each in its own child process, so RSS is its own):
//   api               our API (createRuntime: Fastify + Apollo + type-graphql, graphql-jit executor)
//   api-nocache       the same with the response cache and the leaderboard service's cache off (leaderboard scenarios only)
//   mercurius-schema  Mercurius + graphql-jit (jit: 1) serving our built schema and services
//   mercurius-pg      Mercurius + graphql-jit with hand-written resolvers on pg
//   apollo            plain Apollo Server 5 + @as-integrations/fastify + graphql-jit, the same hand-written resolvers
//   raw               raw Fastify + pg, one route per scenario
// Before the load each answer is checked against the raw server's (same data, or a MISMATCH line).
import { spawn, type ChildProcess } from 'node:child_process';
import { nodeArgsFor } from '../built';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { runLoad, type LoadResult } from '../load';
import { SUI, blogEnv } from '../seed';
import { scenarios, type Request, type Scenario } from './scenarios';

interface ServerSpec {
  key: string;
  label: string;
  script: string;
  args?: string[];
  graphql: boolean;
  /** Only these scenario groups (default all). */
  groups?: string[];
}

const SERVERS: ServerSpec[] = [
  { key: 'api', label: 'our API', script: 'bench/reference/servers/api.ts', graphql: true },
  { key: 'api-nocache', label: 'our API, caches off', script: 'bench/reference/servers/api.ts', args: ['--cache-ttl=0', '--response-cache=off'], graphql: true, groups: ['top100', 'rank', 'nested'] },
  { key: 'mercurius-schema', label: 'Mercurius+jit, our schema', script: 'bench/reference/servers/mercurius-schema.ts', graphql: true },
  { key: 'mercurius-pg', label: 'Mercurius+jit, hand-written pg', script: 'bench/reference/servers/mercurius-pg.ts', graphql: true },
  { key: 'apollo', label: 'plain Apollo+jit, hand-written pg', script: 'bench/reference/servers/apollo.ts', graphql: true },
  { key: 'raw', label: 'raw Fastify + pg', script: 'bench/reference/servers/raw.ts', graphql: false },
];

export interface ReferenceOptions {
  benchDatabaseUrl: string;
  /** The blog CMS's bench database (bench/seed.ts); without it the blog scenario is left out. */
  blogDatabaseUrl?: string;
  selected: (scenario: Scenario) => boolean;
  connections: number;
  durationMs: number;
  warmupMs: number;
  /** Interleaved rounds per scenario (default 1). */
  rounds: number;
}

interface Measured extends LoadResult {
  rssMiB: number;
}

export async function startChild(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...nodeArgsFor(script), ...args], { stdio: ['ignore', 'pipe', 'inherit'], env });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /READY (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function requestOf(server: ServerSpec, s: Scenario): Request {
  return server.graphql ? { method: 'POST', path: '/graphql', body: JSON.stringify({ query: s.graphql }) } : s.raw;
}

const headersOf = (r: Request) => (r.body ? { 'content-type': 'application/json' } : undefined);

/** A server's answer; while it answers errors (the blog's CMS still opening answers SERVICE_UNAVAILABLE), asked again for up to a minute. */
async function answer(url: string, r: Request): Promise<unknown> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(url + r.path, { method: r.method, body: r.body, headers: headersOf(r) });
    const body = (await res.json()) as { errors?: unknown[] };
    // (Mercurius reports the error without our `extensions.code`: any error is asked again until the deadline.)
    if (!body.errors?.length || Date.now() > deadline) return body;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Resident set of a process (Linux /proc), MiB. */
function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** The load, with the server's peak RSS sampled every 100 ms. */
async function measure(url: string, pid: number, r: Request, opts: ReferenceOptions): Promise<Measured> {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 100);
  try {
    const result = await runLoad({ url, path: r.path, method: r.method, body: r.body, headers: headersOf(r), connections: opts.connections, durationMs: opts.durationMs, warmupMs: opts.warmupMs });
    return { ...result, rssMiB: Math.max(peak, rssMiB(pid)) };
  } finally {
    clearInterval(timer);
  }
}

async function rankedPlayer(benchDatabaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: benchDatabaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ player: string }>('SELECT player FROM bet_leaderboard WHERE coin_type = $1 ORDER BY total_wagered DESC, player OFFSET 49999 LIMIT 1', [SUI]);
    return rows[0].player;
  } finally {
    await client.end();
  }
}

const fmt = (n: number, w: number, d = 0) => n.toFixed(d).padStart(w);

/** Per figure, the median over the rounds (the peak for RSS, the sum for errors). */
function median(runs: Measured[]): Measured {
  const mid = (f: (m: Measured) => number) => runs.map(f).sort((a, b) => a - b)[Math.floor((runs.length - 1) / 2)];
  return {
    requests: runs.reduce((n, r) => n + r.requests, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    rps: mid((r) => r.rps),
    p50Ms: mid((r) => r.p50Ms),
    p99Ms: mid((r) => r.p99Ms),
    rssMiB: Math.max(...runs.map((r) => r.rssMiB)),
  };
}

export async function benchReference(opts: ReferenceOptions): Promise<string[]> {
  const list = scenarios({ rankedPlayer: await rankedPlayer(opts.benchDatabaseUrl) }).filter((s) => opts.selected(s) && (s.group !== 'blog' || opts.blogDatabaseUrl));
  if (list.length === 0) return [];
  const results = new Map<string, Map<string, Measured[]>>(list.map((s) => [s.name, new Map()]));
  const expected = new Map<string, unknown>();
  const notes: string[] = [];
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_DATABASE_URL: opts.benchDatabaseUrl, ...(opts.blogDatabaseUrl ? blogEnv(opts.blogDatabaseUrl) : {}) };
  const scenariosOf = (server: ServerSpec) => list.filter((s) => !server.groups || server.groups.includes(s.group));
  // All servers up at once (idle ones cost memory, not CPU); raw first: its answers are the reference the others are checked against.
  const servers = [...SERVERS.filter((s) => s.key === 'raw'), ...SERVERS.filter((s) => s.key !== 'raw')].filter((s) => scenariosOf(s).length > 0);
  const running: Array<{ spec: ServerSpec; url: string; child: ChildProcess }> = [];
  // The blog's CMS runs in a process of its own (as the blog process does), read over loopback by our API and Mercurius on our schema.
  let blogCms: ChildProcess | undefined;
  try {
    if (list.some((s) => s.group === 'blog')) {
      const cms = await startChild('bench/reference/servers/blog-cms.ts', [], env);
      blogCms = cms.child;
      env.BLOG_CMS_URL = cms.url;
    }
    for (const spec of servers) running.push({ spec, ...(await startChild(spec.script, spec.args ?? [], env)) });
    for (const { spec, url } of running) {
      for (const s of scenariosOf(spec)) {
        const got = (await answer(url, requestOf(spec, s))) as { data?: unknown; errors?: unknown };
        if (spec.key === 'raw') expected.set(s.name, got.data);
        else if (got.errors || !isDeepStrictEqual(JSON.parse(JSON.stringify(got.data)), expected.get(s.name))) {
          notes.push(`MISMATCH ${s.name} on ${spec.key}: ${JSON.stringify(got).slice(0, 300)}`);
        }
      }
    }
    // Rounds interleave the servers (the order rotating each round), so a slow moment of the
    // machine falls on all of them rather than on one; each figure is the median over rounds.
    for (const s of list) {
      const these = running.filter((r) => scenariosOf(r.spec).includes(s));
      for (let round = 0; round < opts.rounds; round++) {
        for (let k = 0; k < these.length; k++) {
          const { spec, url, child } = these[(k + round) % these.length];
          const byServer = results.get(s.name)!;
          byServer.set(spec.key, [...(byServer.get(spec.key) ?? []), await measure(url, child.pid!, requestOf(spec, s), opts)]);
        }
      }
    }
  } finally {
    await Promise.all(running.map((r) => stopChild(r.child)));
    if (blogCms) await stopChild(blogCms);
  }
  const lines: string[] = [
    `reference (${opts.connections} connections, ${opts.durationMs} ms per measurement after ${opts.warmupMs} ms warm-up, median of ${opts.rounds} interleaved round(s); RSS = the server's peak under load)`,
  ];
  lines.push(`${'scenario / server'.padEnd(40)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'RSS MiB'.padStart(8)} ${'err'.padStart(5)}   our API ÷ this (req/s; RSS)`);
  const medians = new Map(list.map((s) => [s.name, new Map([...results.get(s.name)!].map(([key, runs]) => [key, median(runs)]))]));
  for (const s of list) {
    lines.push(s.name);
    const rows = medians.get(s.name)!;
    const ours = rows.get('api')!;
    for (const server of SERVERS) {
      const r = rows.get(server.key);
      if (!r) continue;
      const ratio = server.key === 'api' ? '' : `   ${(ours.rps / r.rps).toFixed(2)}x; ${(ours.rssMiB / r.rssMiB).toFixed(2)}x`;
      lines.push(`  ${server.label.padEnd(38)} ${fmt(r.rps, 8)} ${fmt(r.p50Ms, 8, 2)} ${fmt(r.p99Ms, 8, 2)} ${fmt(r.rssMiB, 8)} ${fmt(r.errors, 5)}${ratio}`);
    }
  }
  return [...lines, ...goalLines(medians), ...notes];
}

/**
 * The lean-API goals (issue 27), from the figures of this run: `{ __typename }` ≥ 0.8× plain
 * Apollo, the cached XP top-100 ≥ 2.0× Mercurius+jit on hand-written pg (uncached), our peak RSS
 * ≤ 1.5× plain Apollo's in every scenario both served, our quest status p99 under 25 ms.
 */
function goalLines(rows: Map<string, Map<string, Measured>>): string[] {
  const ratio = (scenario: string, other: string) => {
    const ours = rows.get(scenario)?.get('api');
    const theirs = rows.get(scenario)?.get(other);
    return ours && theirs ? ours.rps / theirs.rps : undefined;
  };
  // RSS: the worst scenario's ratio of the two peaks (each server's peak depends on the load it was under).
  const rss = [...rows.values()].flatMap((r) => (r.get('api') && r.get('apollo') ? [r.get('api')!.rssMiB / r.get('apollo')!.rssMiB] : []));
  const goals: Array<[string, number | undefined, (v: number) => boolean, unit?: string]> = [
    ['{ __typename } ≥ 0.8x plain Apollo (req/s)', ratio('trivial', 'apollo'), (v) => v >= 0.8],
    ['cached XP top-100 ≥ 2.0x Mercurius+jit uncached (req/s)', ratio('top100-xp', 'mercurius-pg'), (v) => v >= 2.0],
    ['RSS ≤ 1.5x plain Apollo (worst scenario)', rss.length ? Math.max(...rss) : undefined, (v) => v <= 1.5],
    ['quest status p99 < 25 ms at the bench\'s connections', rows.get('quest-status')?.get('api')?.p99Ms, (v) => v < 25, ' ms'],
  ];
  const lines = goals
    .filter(([, v]) => v !== undefined)
    .map(([name, v, met, unit = 'x']) => `  ${name.padEnd(56)} ${v!.toFixed(2).padStart(6)}${unit}  ${met(v!) ? 'met' : 'MISSED'}`);
  return lines.length ? ['goals (issue 27, this run)', ...lines] : [];
}
