// The fan-out reference: a plain Node HTTP server with socket.io 4 and @socket.io/redis-adapter,
// nothing of ours. Clients join a room with `room:join` { room } (acknowledged { ok: true, room });
// `chat:send` { room, text } broadcasts a ChatMessage-shaped `chat:message` to the room on every
// process through the adapter (no storage, no auth, no limits). GET /stats answers this process's
// RSS, CPU and the longest event-loop delay since the last /stats (perf_hooks).
//   node .bench-dist/sio-reference.js   (REDIS_URL, REDIS_KEY; prints READY <port>)
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';

const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();

const http = createServer((req, res) => {
  if (req.url !== '/stats') return void res.writeHead(404).end();
  const { user, system } = process.cpuUsage();
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ rss: process.memoryUsage.rss(), cpuMs: (user + system) / 1000, lagMaxMs: lag.max / 1e6 }));
  lag.reset();
});
const io = new Server(http, { serveClient: false });
const pub = new Redis(process.env.REDIS_URL!);
const sub = pub.duplicate();
io.adapter(createAdapter(pub, sub, { key: process.env.REDIS_KEY ?? 'bench-sio' }));

type Ack = (reply: Record<string, unknown>) => void;
const ackOf = (ack: unknown): Ack => (typeof ack === 'function' ? (ack as Ack) : () => undefined);

io.on('connection', (socket) => {
  socket.on('room:join', async (payload: { room?: unknown }, ack: unknown) => {
    const room = String(payload?.room);
    await socket.join(room);
    ackOf(ack)({ ok: true, room });
  });
  socket.on('chat:send', (payload: { room?: unknown; text?: unknown }, ack: unknown) => {
    const message = { id: randomUUID(), room: String(payload?.room), author: socket.id, text: String(payload?.text), createdAt: new Date().toISOString(), reactions: [] };
    io.to(message.room).emit('chat:message', message);
    ackOf(ack)({ ok: true, message });
  });
});

// the backlog our API listens with (src/runtime/index.ts), so connect surges meet the same kernel queue
http.listen({ port: 0, host: '127.0.0.1', backlog: 4_096 }, () => {
  const address = http.address();
  process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.once('SIGTERM', () => {
  io.close();
  pub.disconnect();
  sub.disconnect();
  process.exit(0);
});
