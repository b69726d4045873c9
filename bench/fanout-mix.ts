// The mixed fan-out bench (issue 47, goal 1): N live subscribers, half graphql-ws and half Socket.IO,
// each on the `global` chat room AND the activity feed, spread over our API processes on one Redis,
// opened by load-generator child processes (bench/fanout-load.ts, lean clients) at a paced rate.
// Measures the API processes' longest event-loop delay while they connect, their RSS growth per
// connection once idle, then send → delivery latency of chat messages over every subscriber. The same
// run repeats it against the reference (bench/sio-reference.ts: plain socket.io + its Redis adapter)
// with the same number of Socket.IO clients, and prints both side by side with the goals.
//
// `benchFanoutMix()` (bench/run.ts `--only fanout50k`) re-runs this file in a shell that raises
// `ulimit -n` to its hard limit: every process here holds thousands of sockets.
//   node .bench-dist/fanout-mix.js --drive [--subscribers=50000] [--messages=10] [--rate=1000] [--processes=2]
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { io as ioClient } from 'socket.io-client';
import WebSocket from 'ws';
import { nodeArgsFor, startReady } from './built';
import { JWT_SECRET } from './fanout-auth';
import type { Plan, Target, Transport } from './fanout-load';
import { leanSioSubscribe } from './lean-sio-client';
import { leanSubscribe } from './lean-ws-client';

const arg = (name: string, fallback: number) => Number(new RegExp(`--${name}=(\\d+)`).exec(process.argv.join(' '))?.[1] ?? fallback);
const ROOM = 'global';
const GOAL = { subscribers: 50_000, processes: 2, p99Ms: 500, p50Ms: 150, kibPerSubscriber: 16, stallMs: 100, ratePerSecond: 1_000 };
/** File descriptors a process keeps besides its subscribers' sockets (Redis, PostgreSQL, stdio, the sender…). */
const FD_RESERVE = 500;
/** Subscribers per load-generator process at most (each holds one descriptor per subscriber). */
const PER_GENERATOR = 13_000;
const WARMUP_BROADCASTS = 2;
/** Source addresses per load generator: bind() finds about 7,000 free ephemeral ports per address here. */
const ADDRESSES_PER_GENERATOR = 4;
const SUBSCRIPTIONS = [`subscription { chatMessages(room: "${ROOM}") { id room author text createdAt reactions { emoji count } } }`, 'subscription { activity { kind player summary at } }'];

const epochMs = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => loadavg().map((v) => v.toFixed(2)).join(' ');
const percentile = (sorted: Float64Array | number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Runs the mixed fan-out bench in a child shell with `ulimit -n` at its hard limit; resolves with its report lines. */
export function benchFanoutMix(opts: { subscribers?: number; messages?: number; processes?: number } = {}): Promise<string[]> {
  const args = `--drive --subscribers=${opts.subscribers ?? GOAL.subscribers} --messages=${opts.messages ?? 10}${opts.processes ? ` --processes=${opts.processes}` : ''}`;
  const script = `ulimit -n "$(ulimit -Hn)"; exec "${process.execPath}" ${nodeArgsFor('bench/fanout-mix.ts').join(' ')} ${args}`;
  const child = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(out.trim().split('\n')) : reject(new Error(`mixed fan-out bench exited with ${code}:\n${out}`)))),
  );
}

interface Stats {
  rss: number;
  cpuMs: number;
  /** The longest event-loop delay since the previous read. */
  lagMaxMs: number;
}

interface Server {
  url: string;
  child: ChildProcess;
  stats(): Promise<Stats>;
}

/** `BENCH_FANOUT_PROFILE=<dir>`: each server writes a V8 CPU profile there when it stops. */
const PROFILE = process.env.BENCH_FANOUT_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_FANOUT_PROFILE}`] : [];


/** Our API process (bench/fanout.ts --serve); its figures from its Prometheus /metrics (prom-client resets the loop-delay histogram at each scrape). */
async function startApi(env: Record<string, string>): Promise<Server> {
  const { url, child } = await startReady('bench/fanout.ts', ['--serve'], env, PROFILE);
  const metric = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const stats = async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    return { rss: metric(text, 'process_resident_memory_bytes'), cpuMs: metric(text, 'process_cpu_seconds_total') * 1000, lagMaxMs: metric(text, 'nodejs_eventloop_lag_max_seconds') * 1000 };
  };
  return { url, child, stats };
}

async function startReference(env: Record<string, string>): Promise<Server> {
  const { url, child } = await startReady('bench/sio-reference.ts', [], env, PROFILE);
  return { url, child, stats: async () => (await (await fetch(`${url}/stats`)).json()) as Stats };
}

/** A load-generator process and the messages it sends back. */
interface Generator {
  child: ChildProcess;
  next(type: string, predicate?: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

function startGenerator(): Generator {
  const child = spawn(process.execPath, nodeArgsFor('bench/fanout-load.ts'), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  const waiting: Array<{ type: string; predicate?: (m: Record<string, unknown>) => boolean; resolve: (m: Record<string, unknown>) => void }> = [];
  const early: Array<Record<string, unknown>> = [];
  child.on('message', (m: Record<string, unknown>) => {
    const i = waiting.findIndex((w) => w.type === m.type && (!w.predicate || w.predicate(m)));
    if (i === -1) early.push(m);
    else waiting.splice(i, 1)[0].resolve(m);
  });
  return {
    child,
    next: (type, predicate) => {
      const i = early.findIndex((m) => m.type === type && (!predicate || predicate(m)));
      if (i !== -1) return Promise.resolve(early.splice(i, 1)[0]);
      return new Promise((resolve) => waiting.push({ type, predicate, resolve }));
    },
  };
}

const within = <T>(work: Promise<T>, ms: number): Promise<T | undefined> => Promise.race([work, sleep(ms).then(() => undefined)]);

interface PhaseResult {
  label: string;
  connections: number[];
  failed: number;
  connectMs: number;
  lagMaxMs: number[];
  kibPerConnection: number[];
  kibOverall: number;
  latencies: Record<Transport, Float64Array>;
  all: Float64Array;
  missing: number;
  /** Measured messages that did not reach every subscriber within 30 s. */
  incomplete: number;
  serverCpuMs: number[];
  generatorCpuMs: number;
  loadStart: string;
  loadEnd: string;
}

/**
 * One measurement: the generators open `plans`, the servers' longest loop delay is read once they are connected, then
 * `send(text)` broadcasts (its resolved time is when the text left the sender).
 */
async function phase(label: string, servers: Server[], plans: Plan[], send: (text: string) => Promise<void>, messages: number): Promise<PhaseResult> {
  // one subscriber of each kind per server first, closed again: the first subscription's one-time work
  // (parsing, validation, the graphql-jit plan, lazy modules) is not the connect rate's
  const kinds = plans[0].targets.filter((t, i, all) => all.findIndex((o) => o.transport === t.transport) === i);
  for (const server of servers)
    for (const t of kinds) {
      const sub = await (t.transport === 'gws' ? leanSubscribe(server.url, t.join as string[], () => undefined) : leanSioSubscribe(server.url, t.join as [string, unknown], () => undefined));
      await sleep(200);
      sub.close();
    }
  await sleep(1_000);
  const loadStart = load();
  const generators = plans.map(() => startGenerator());
  const before = await Promise.all(servers.map((s) => s.stats()));
  // The servers' longest delay since `before` (each /stats or /metrics read resets it), read once when all are
  // connected: a scrape of our /metrics costs a few hundred ms at 16,000 sockets (prom-client lists every fd and
  // handle), so scraping during the phase would add the stalls it measures.
  const started = performance.now();
  generators.forEach((g, i) => g.child.send({ type: 'connect', plan: plans[i] }));
  const connected = await Promise.all(generators.map((g) => g.next('connected')));
  const connectMs = performance.now() - started;
  const lagMaxMs = (await Promise.all(servers.map((s) => s.stats()))).map((s) => s.lagMaxMs);
  const failed = connected.reduce((n, c) => n + Number(c.failed), 0);
  const errors = connected.flatMap((c) => c.errors as string[]);
  if (errors.length) process.stderr.write(`${label}: ${failed} connections failed, e.g. ${errors.slice(0, 3).join(' | ')}\n`);
  const connections = servers.map((s) => plans.reduce((n, p) => n + p.targets.filter((t) => t.url === s.url).reduce((m, t) => m + t.count, 0), 0));
  // idle: let the connect phase's garbage and timers settle before reading RSS
  await sleep(3_000);
  const idle = await Promise.all(servers.map((s) => s.stats()));
  const kibPerConnection = idle.map((s, i) => (s.rss - before[i].rss) / connections[i] / 1024);
  const kibOverall = idle.reduce((n, s, i) => n + s.rss - before[i].rss, 0) / connections.reduce((a, b) => a + b, 0) / 1024;

  const allOf = (text: string, timeoutMs: number) => within(Promise.all(generators.map((g) => g.next('all', (m) => m.text === text))), timeoutMs);
  const warm = Promise.all(generators.map((g) => g.next('warm')));
  let isWarm = false;
  void warm.then(() => (isWarm = true));
  for (let tries = 0; !isWarm && tries < 30; tries++) {
    await send(`warm-up ${randomUUID()}`);
    await within(warm, 2_000);
  }
  for (let w = 0; w < WARMUP_BROADCASTS; w++) {
    const text = `warm-up ${randomUUID()}`;
    const done = allOf(text, 30_000);
    await send(text);
    await done;
  }
  for (const g of generators) g.child.send({ type: 'mark' });
  const cpuBefore = await Promise.all(servers.map((s) => s.stats()));
  let incomplete = 0;
  for (let m = 0; m < messages; m++) {
    const id = randomUUID();
    // the generators match on the whole text: the epoch is fixed here, before the send
    const at = epochMs().toFixed(3);
    const text = `fanout ${at} ${id}`;
    const done = allOf(text, 30_000);
    await send(text);
    if ((await done) === undefined) incomplete++;
    await sleep(200);
  }
  const cpuAfter = await Promise.all(servers.map((s) => s.stats()));
  const reports = await Promise.all(generators.map((g) => (g.child.send({ type: 'report' }), g.next('report'))));
  for (const g of generators) g.child.send({ type: 'close' });
  await Promise.all(generators.map((g) => new Promise((resolve) => (g.child.exitCode !== null ? resolve(null) : g.child.once('exit', resolve)))));
  const latencies = { gws: concat(reports.map((r) => (r.latencies as Record<Transport, Float64Array>).gws)), sio: concat(reports.map((r) => (r.latencies as Record<Transport, Float64Array>).sio)) };
  const all = concat([latencies.gws, latencies.sio]);
  const total = connections.reduce((a, b) => a + b, 0);
  return {
    label,
    connections,
    failed,
    connectMs,
    lagMaxMs,
    kibPerConnection,
    kibOverall,
    latencies,
    all,
    missing: (total - failed) * messages - all.length,
    incomplete,
    serverCpuMs: cpuAfter.map((s, i) => (s.cpuMs - cpuBefore[i].cpuMs) / messages),
    generatorCpuMs: reports.reduce((n, r) => n + Number(r.cpuMs), 0) / messages,
    loadStart,
    loadEnd: load(),
  };
}

function concat(parts: Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out.sort();
}

/**
 * Each generator's share of `perServer` subscribers on every server, graphql-ws and Socket.IO halves
 * when `mixed`; each generator connects from its own loopback addresses (127.0.0.2, .3, …): an
 * explicitly bound source address gets its own ephemeral ports, but only about 7,000 of them here.
 */
function plansFor(urls: string[], perServer: number, generators: number, mixed: boolean, rate: number): Plan[] {
  return Array.from({ length: generators }, (_, g) => {
    const share = (total: number, parts: number, i: number) => Math.floor(total / parts) + (i < total % parts ? 1 : 0);
    const localAddresses = Array.from({ length: ADDRESSES_PER_GENERATOR }, (_, a) => `127.0.0.${2 + g * ADDRESSES_PER_GENERATOR + a}`);
    const targets: Target[] = urls.flatMap((url) => {
      const mine = share(perServer, generators, g);
      if (!mixed) return [{ url, transport: 'sio' as const, count: mine, join: ['room:join', { room: ROOM }] as [string, unknown], localAddresses }];
      return [
        { url, transport: 'gws' as const, count: share(mine, 2, 0), join: SUBSCRIPTIONS, localAddresses },
        { url, transport: 'sio' as const, count: share(mine, 2, 1), join: ['room:join', { room: ROOM }] as [string, unknown], localAddresses },
      ];
    });
    return { targets, ratePerSecond: rate / generators };
  });
}

/** Sends each text as `sendChatMessage` over graphql-ws on `url`, from a fresh wallet each time (the per-wallet message limit is not what is measured). */
async function apiSender(url: string): Promise<(text: string) => Promise<void>> {
  const { createTokenService } = await import('../src/services/auth');
  const tokens = createTokenService({ secret: JWT_SECRET, issuer: 'platform-backend', accessTtlSeconds: 3600 });
  return async (text) => {
    const ws = await new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
      socket.once('error', reject);
      socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${tokens.signAccess('0x' + randomUUID().replace(/-/g, '').padEnd(64, '0'))}` } })));
      socket.once('message', () => resolve(socket));
    });
    // a refused send (a limit, a time-out) reaches nobody: said on stderr, as the deliveries it costs show as MISSING
    ws.on('message', (raw) => {
      const reply = String(raw);
      if (reply.includes('"errors"') || reply.includes('"type":"error"')) process.stderr.write(`send refused: ${reply.slice(0, 300)}\n`);
    });
    ws.send(JSON.stringify({ type: 'subscribe', id: 'send', payload: { query: 'mutation($t: String!) { sendChatMessage(room: "global", text: $t) { id } }', variables: { t: text } } }));
    setTimeout(() => ws.close(), 5_000).unref();
  };
}

/** Sends each text as `chat:send` to the reference over one Socket.IO connection. */
async function referenceSender(url: string): Promise<{ send: (text: string) => Promise<void>; close(): void }> {
  const socket = ioClient(url, { transports: ['websocket'] });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('connect_error', reject));
  return {
    send: async (text) =>
      void socket.emit('chat:send', { room: ROOM, text }, (ack: { ok?: boolean }) => ack?.ok || process.stderr.write(`send refused: ${JSON.stringify(ack).slice(0, 300)}\n`)),
    close: () => socket.close(),
  };
}

/** A scratch PostgreSQL database beside DATABASE_URL's for the API processes (dropped after), or none: PGlite in each process. */
async function scratchDatabase(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) return { url: undefined, drop: async () => undefined };
  const name = `bench_fanout_mix_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

function fdLimit(): number {
  return Number(/^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? 1024);
}

const ms = (v: number) => v.toFixed(1).padStart(6);

function describe(r: PhaseResult): string[] {
  const total = r.connections.reduce((a, b) => a + b, 0);
  const split = (['gws', 'sio'] as const)
    .filter((t) => r.latencies[t].length)
    .map((t) => `${t === 'gws' ? 'graphql-ws' : 'Socket.IO'} p50 ${ms(percentile(r.latencies[t], 50))} / p99 ${ms(percentile(r.latencies[t], 99))}`)
    .join(', ');
  return [
    `${r.label}: ${total} connections (${r.connections.join(' + ')}) in ${(r.connectMs / 1000).toFixed(1)} s = ${((total / r.connectMs) * 1000).toFixed(0)}/s${r.failed ? `, ${r.failed} FAILED` : ''}; load average ${r.loadStart} → ${r.loadEnd}`,
    `  latency p50 ${ms(percentile(r.all, 50))} ms  p99 ${ms(percentile(r.all, 99))} ms  max ${ms(r.all[r.all.length - 1] ?? NaN)} ms  (${split})${r.missing ? `  MISSING ${r.missing} (${r.incomplete} messages short after 30 s)` : ''}`,
    `  memory ${r.kibOverall.toFixed(1)} KiB per idle connection (RSS growth ÷ connections; per process ${r.kibPerConnection.map((v) => v.toFixed(1)).join(' / ')})`,
    `  longest event-loop delay while connecting: ${r.lagMaxMs.map((v) => v.toFixed(0)).join(' / ')} ms; CPU per broadcast: servers ${r.serverCpuMs.map((v) => v.toFixed(0)).join(' + ')} ms, generators ${r.generatorCpuMs.toFixed(0)} ms`,
  ];
}

async function drive(): Promise<void> {
  const subscribers = arg('subscribers', GOAL.subscribers);
  const messages = arg('messages', 10);
  const rate = arg('rate', GOAL.ratePerSecond);
  const limit = fdLimit();
  const processes = Math.max(arg('processes', GOAL.processes), Math.ceil(subscribers / (limit - FD_RESERVE)));
  const generators = Math.max(2, Math.ceil(subscribers / Math.min(PER_GENERATOR, limit - FD_RESERVE)));
  const perServer = Math.floor(subscribers / processes);
  const total = perServer * processes;
  const redisUrl = new URL(process.env.BENCH_FANOUT_REDIS_URL || 'redis://127.0.0.1:6379/7');
  const lines = [
    `fan-out, mixed (issue 47 goal 1): ${total} subscribers on ${processes} processes sharing Redis ${redisUrl.pathname}, ${generators} load generators connecting at ${rate}/s; ${messages} messages after ${WARMUP_BROADCASTS} warm-up broadcasts; latency = send → each delivery`,
  ];
  if (processes > GOAL.processes)
    lines.push(`  (${GOAL.processes} processes would hold ${Math.ceil(subscribers / GOAL.processes)} sockets each; the file-descriptor limit here is ${limit} per process, so ${processes} processes)`);
  const children: ChildProcess[] = [];
  const db = await scratchDatabase();
  try {
    const shared = { CACHE_STORE: 'redis', SHARED_STORE_URL: redisUrl.toString(), SHARED_STORE_KEY_PREFIX: `bench:${randomUUID()}:`, ...(db.url ? { DATABASE_URL: db.url } : {}) };
    // one at a time: the first migrates the scratch database
    const apis: Server[] = [];
    for (let i = 0; i < processes; i++) apis.push(await startApi(shared));
    children.push(...apis.map((a) => a.child));
    const send = await apiSender(apis[0].url);
    const ours = await phase('ours (graphql-ws + Socket.IO, chat room + activity)', apis, plansFor(apis.map((a) => a.url), perServer, generators, true, rate), send, messages);
    for (const a of apis) a.child.kill('SIGTERM');
    lines.push(...describe(ours));
    // `--ours-only`: no reference (profiling our servers)
    if (process.argv.includes('--ours-only')) return void process.stdout.write(`${lines.join('\n')}\n`);

    const refs: Server[] = [];
    const adapterKey = `bench-sio:${randomUUID()}`;
    for (let i = 0; i < processes; i++) refs.push(await startReference({ REDIS_URL: redisUrl.toString(), REDIS_KEY: adapterKey }));
    children.push(...refs.map((r) => r.child));
    const sender = await referenceSender(refs[0].url);
    const reference = await phase('reference (socket.io + @socket.io/redis-adapter, Socket.IO only, chat room)', refs, plansFor(refs.map((r) => r.url), perServer, generators, false, rate), sender.send, messages);
    sender.close();

    lines.push(...describe(reference));
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    const oursP50 = percentile(ours.all, 50);
    const oursP99 = percentile(ours.all, 99);
    const stall = Math.max(...ours.lagMaxMs);
    lines.push(
      `  ours ÷ reference: p50 ${ratio(oursP50, percentile(reference.all, 50))}, p99 ${ratio(oursP99, percentile(reference.all, 99))}, memory per connection ${ratio(ours.kibOverall, reference.kibOverall)}, longest loop delay ${ratio(stall, Math.max(...reference.lagMaxMs))}`,
    );
    const judged = total >= GOAL.subscribers && processes === GOAL.processes && !ours.missing && !ours.failed;
    const verdict = (met: boolean) => (met && judged ? 'MET' : met ? `MET here, but not as the goal is set (${total} subscribers on ${processes} processes${ours.missing ? `, ${ours.missing} missing` : ''})` : 'MISSED');
    lines.push(
      `goal 1 (issue 47): p99 < ${GOAL.p99Ms} ms: ${verdict(oursP99 < GOAL.p99Ms)} (${oursP99.toFixed(1)} ms)`,
      `goal 1 (issue 47): p50 < ${GOAL.p50Ms} ms: ${verdict(oursP50 < GOAL.p50Ms)} (${oursP50.toFixed(1)} ms)`,
      `goal 1 (issue 47): memory per idle subscriber ≤ ${GOAL.kibPerSubscriber} KiB: ${verdict(ours.kibOverall <= GOAL.kibPerSubscriber)} (${ours.kibOverall.toFixed(1)} KiB)`,
      `goal 1 (issue 47): no event-loop stall over ${GOAL.stallMs} ms while connecting at ${GOAL.ratePerSecond}/s: ${verdict(stall <= GOAL.stallMs && rate >= GOAL.ratePerSecond)} (${stall.toFixed(0)} ms)`,
    );
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    await sleep(1_000);
    await db.drop().catch((err: Error) => process.stderr.write(`scratch database not dropped: ${err.message}\n`));
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (process.argv.includes('--drive')) await drive();
