// Soak (issue 47, goal 4): the mixed workload at 70 % of its measured capacity for `minutes`
// against two API replicas, the jobs, the indexer and the blog (bench/soak/processes.ts), with a table per
// window (p50/p99 per operation; RSS, heap, event-loop lag and open descriptors per process;
// PostgreSQL connections; Redis memory) and the goals with MET or MISSED at the end.
//   npm run bench -- --only soak [--minutes 60] [--window 5]
// Beside the paced mix (bench/soak/mix.ts): chat at a fixed rate to live subscribers
// (bench/soak/realtime.ts) and the partner's webhook publishes (bench/soak/webhooks.ts).
import { measureCapacity } from './soak/capacity';
import { createHttpClient } from './soak/http';
import { mixRequest, randomIp } from './soak/mix';
import { startPacer } from './soak/pacer';
import { createProber } from './soak/probes';
import { startSoakSystem } from './soak/processes';
import { startRealtime } from './soak/realtime';
import { createRecorder } from './soak/recorder';
import { judgeGoals, windowLines, type Goals, type WindowReport } from './soak/report';
import { loginFlow, type Wallet } from './soak/wallets';
import { startPublisher } from './soak/webhooks';

const LOAD_SHARE = 0.7;
const WALLETS = 200;
const CHAT_SENDERS = 16;
const CHAT_PER_SECOND = 4;
const WEBHOOKS_PER_SECOND = 1;
const LEAN_SUBSCRIBERS = 300;
const SOCKET_IO_SUBSCRIBERS = 20;
const CAPACITY_STEP_MS = 3000;
/** Connections per replica of the driver's HTTP pools. */
const CONNECTIONS = 64;

export async function benchSoak(opts: { serverUrl: string; redisUrl: string; minutes: number; windowMinutes: number; warmupMinutes?: number; log: (line: string) => void }): Promise<{ lines: string[]; met: Goals['met'] }> {
  const { log } = opts;
  const windowMs = opts.windowMinutes * 60_000;
  const windows = Math.max(1, Math.round(opts.minutes / opts.windowMinutes));
  // RSS and the first steady window are taken after the warm-up: 10 minutes by default; a run of 10 minutes or less, its first window.
  const warmupWindows = Math.max(1, Math.ceil((opts.warmupMinutes ?? (opts.minutes > 10 ? 10 : opts.windowMinutes)) / opts.windowMinutes));
  log(`soak: ${windows} windows of ${opts.windowMinutes} min at ${LOAD_SHARE * 100} % of capacity; ${LEAN_SUBSCRIBERS} lean graphql-ws + ${SOCKET_IO_SUBSCRIBERS} Socket.IO subscribers, ${CHAT_PER_SECOND} chat messages/s, ${WEBHOOKS_PER_SECOND} webhook publish/s`);
  const system = await startSoakSystem({ serverUrl: opts.serverUrl, redisUrl: opts.redisUrl, minutes: opts.minutes, log });
  const recorder = createRecorder();
  const http = createHttpClient(system.apiUrls, recorder, { connections: CONNECTIONS });
  const prober = await createProber({ ...system, serverUrl: opts.serverUrl });
  let realtime: Awaited<ReturnType<typeof startRealtime>> | undefined;
  const wallets: Wallet[] = [];
  const fire = mixRequest(http, wallets);
  const pacer = startPacer(fire, { maxInFlight: 2 * CONNECTIONS * system.apiUrls.length });
  const publisher = startPublisher(http, system.webhookSecret);
  try {
    // (answers before the measured windows are not judged: a login timing out here is retried)
    for (let attempts = 0; wallets.length < WALLETS && attempts < 2 * WALLETS; attempts += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, j) => loginFlow(http, j % 2, randomIp())));
      wallets.push(...batch.filter((w): w is Wallet => w !== null).slice(0, WALLETS - wallets.length));
    }
    if (wallets.length < WALLETS) throw new Error(`only ${wallets.length} of ${WALLETS} wallets logged in: ${recorder.errorSamples().join(' | ')}`);
    // the price endpoints answer once the jobs process has polled the price source
    const deadline = Date.now() + 60_000;
    while (!(await fetch(`${system.apiUrls[0]}/api/price`).then((r) => r.ok, () => false))) {
      if (Date.now() > deadline) throw new Error('no price after 60 s: the jobs process did not poll the price source');
      await new Promise((r) => setTimeout(r, 500));
    }
    realtime = await startRealtime({ urls: system.apiUrls, subscribers: LEAN_SUBSCRIBERS, socketIoSubscribers: SOCKET_IO_SUBSCRIBERS, senders: wallets.slice(0, CHAT_SENDERS), recorder });
    realtime.startChat(CHAT_PER_SECOND);
    publisher.start(WEBHOOKS_PER_SECOND);

    log('soak: measuring capacity (the request mix, open loop, rising rate)');
    const { capacity } = await measureCapacity(pacer, recorder, { stepMs: CAPACITY_STEP_MS, log });
    if (capacity === 0) throw new Error('no capacity step passed');
    const rate = Math.round(capacity * LOAD_SHARE);
    log(`soak: capacity ${capacity} mix requests/s; driving ${rate}/s for ${windows * opts.windowMinutes} min`);
    // the over-capacity step's backlog drains before the first window starts
    await new Promise((r) => setTimeout(r, 5000));
    recorder.reset();
    pacer.take();
    await prober.sample();
    pacer.setRate(rate);

    const reports: WindowReport[] = [];
    const started = Date.now();
    for (let i = 1; i <= windows; i++) {
      await new Promise((r) => setTimeout(r, started + i * windowMs - Date.now()));
      const { started: starts, skipped } = pacer.take();
      const report: WindowReport = { index: i, minutes: (Date.now() - started) / 60_000, ops: recorder.cut(), system: await prober.sample(), started: starts, skipped };
      reports.push(report);
      log(windowLines(report, windowMs / 1000).join('\n'));
    }
    const goals = judgeGoals(reports, Math.min(warmupWindows, windows - 1) || 1, recorder.errorSamples(), publisher.anomalies());
    const lines = [
      `soak: ${windows} × ${opts.windowMinutes} min at ${rate} mix requests/s (70 % of ${capacity}/s); partner posts created: ${publisher.created()}`,
      ...goals.lines,
      ...(system.storeEvents().length ? [`shared store failovers the processes logged: ${system.storeEvents().join('; ')}`] : []),
    ];
    return { lines, met: goals.met };
  } catch (err) {
    log(`soak failed; the processes' last output:\n${system.output().slice(-6000)}`);
    throw err;
  } finally {
    pacer.setRate(0);
    publisher.stop();
    await pacer.stop();
    realtime?.close();
    await http.close();
    await prober.close();
    await system.stop();
  }
}
