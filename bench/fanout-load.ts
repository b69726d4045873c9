// A load-generator process of the mixed fan-out bench (bench/fanout-mix.ts): opens its share of
// lean graphql-ws and Socket.IO subscribers at a paced rate and timestamps each chat delivery.
// The driver talks to it over IPC (advanced serialization):
//   → { type: 'connect', plan: Plan }        ← { type: 'connected', opened, failed, errors, ms }
//   → { type: 'mark' }                        (CPU is counted from here)
//   ← { type: 'warm' }  once every subscriber has had a `warm-up …` message
//   ← { type: 'all', text }  once every subscriber has had the message `text`
//   → { type: 'report' }                      ← { type: 'report', latencies: { gws, sio }, cpuMs }
//   → { type: 'close' }                       (closes every socket and exits)
// Measured texts are `fanout <epoch ms of the send> <id>`: latency = arrival − send, across processes of one machine.
import { leanSioSubscribe } from './lean-sio-client';
import { leanSubscribe, type LeanSubscription } from './lean-ws-client';

export type Transport = 'gws' | 'sio';

export interface Target {
  url: string;
  transport: Transport;
  count: number;
  /** For Socket.IO: the event that subscribes, [name, payload]; for graphql-ws: the subscription documents. */
  join: [string, unknown] | string[];
  /** Source addresses (127.0.0.x) taken in turn: bind() finds only about 7,000 free ports per address here. */
  localAddresses: string[];
}

export interface Plan {
  targets: Target[];
  /** Connections opened per second by this process. */
  ratePerSecond: number;
}

const HANDSHAKE_TIMEOUT_MS = 30_000;
const epochMs = () => performance.timeOrigin + performance.now();

function send(message: unknown): void {
  process.send!(message);
}

/** The targets' connections interleaved (one of each in turn), so every target fills at the same pace. */
function interleave(targets: Target[]): Target[] {
  const left = targets.map((t) => t.count);
  const order: Target[] = [];
  while (left.some((n) => n > 0)) targets.forEach((t, i) => left[i]-- > 0 && order.push(t));
  return order;
}

async function connect(plan: Plan): Promise<void> {
  const order = interleave(plan.targets);
  const total = order.length;
  /** Deliveries expected per message: every subscriber until they are connected, then the connected ones. */
  let expected = total;
  const warmed = new Uint8Array(total);
  let warmCount = 0;
  const counts = new Map<string, number>();
  const latencies: Record<Transport, number[]> = { gws: [], sio: [] };
  const onText = (index: number, transport: Transport) => (text: string) => {
    const now = epochMs();
    if (text.startsWith('warm-up')) {
      if (!warmed[index]) {
        warmed[index] = 1;
        if (++warmCount === expected) send({ type: 'warm' });
      }
    } else if (text.startsWith('fanout ')) latencies[transport].push(now - Number(text.split(' ')[1]));
    const seen = (counts.get(text) ?? 0) + 1;
    counts.set(text, seen);
    if (seen === expected) {
      counts.delete(text);
      send({ type: 'all', text });
    }
  };
  const open = (index: number): Promise<LeanSubscription> => {
    const t = order[index];
    const localAddress = t.localAddresses[index % t.localAddresses.length];
    const opening =
      t.transport === 'gws'
        ? leanSubscribe(t.url, t.join as string[], onText(index, 'gws'), { localAddress })
        : leanSioSubscribe(t.url, t.join as [string, unknown], onText(index, 'sio'), { localAddress });
    // a handshake never answered counts as failed (and its socket is closed if it ever opens)
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no subscription within ${HANDSHAKE_TIMEOUT_MS} ms`)), HANDSHAKE_TIMEOUT_MS)));
    return Promise.race([opening, timeout]).then(
      (s) => (clearTimeout(timer), s),
      (err: unknown) => {
        clearTimeout(timer);
        void opening.then((s) => s.close(), () => undefined);
        throw err;
      },
    );
  };

  const sockets: LeanSubscription[] = [];
  const errors: string[] = [];
  let failed = 0;
  const started = performance.now();
  const pending: Array<Promise<void>> = [];
  let opened = 0;
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - started) * plan.ratePerSecond) / 1000));
      for (; opened < due; opened++) {
        const { transport } = order[opened];
        pending.push(
          open(opened).then(
            (s) => void sockets.push(s),
            (err: Error) => {
              failed++;
              if (errors.length < 5) errors.push(`${transport}: ${err.message}`);
            },
          ),
        );
      }
      if (opened === total) {
        clearInterval(tick);
        resolve();
      }
    }, 5);
  });
  const progress = setInterval(() => process.stderr.write(`load generator ${process.pid}: ${sockets.length} subscribed, ${failed} failed of ${opened} opened\n`), 10_000);
  await Promise.all(pending);
  clearInterval(progress);
  expected = sockets.length;
  if (warmCount >= expected) send({ type: 'warm' });
  send({ type: 'connected', opened: sockets.length, failed, errors, ms: performance.now() - started });

  let cpuMark = process.cpuUsage();
  process.on('message', (m: { type: string }) => {
    if (m.type === 'mark') cpuMark = process.cpuUsage();
    else if (m.type === 'report') {
      const { user, system } = process.cpuUsage(cpuMark);
      send({ type: 'report', latencies: { gws: Float64Array.from(latencies.gws), sio: Float64Array.from(latencies.sio) }, cpuMs: (user + system) / 1000 });
    } else if (m.type === 'close') {
      for (const s of sockets) s.close();
      setTimeout(() => process.exit(0), 200);
    }
  });
}

process.once('message', (m: { type: string; plan: Plan }) => void connect(m.plan));
