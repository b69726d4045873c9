// A TCP proxy of the tests' own between the processes and PostgreSQL or Redis, to inject network
// faults (no netem on these machines, and no maintained fault proxy installs here):
//   latency   every chunk, both ways, delivered `ms` later (order kept)
//   reset     a share of connections reset (RST): each new one with that probability, and each live
//             one with that probability every 500 ms while the fault lasts
//   blackhole connections still accepted, nothing delivered either way until healed; then what was
//             held is delivered, as TCP retransmission would once a silent network returns
import { createServer, Socket, type Server } from 'node:net';

export type Fault = { kind: 'none' } | { kind: 'latency'; ms: number } | { kind: 'reset'; share: number } | { kind: 'blackhole' };

interface Pipe {
  client: Socket;
  upstream: Socket;
}

/** One direction of a connection: chunks wait for their release time and for the network to be open. */
class Lane {
  private readonly queue: Array<{ at: number; chunk: Buffer }> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly to: Socket,
    private readonly proxy: FaultProxy,
  ) {}

  push(chunk: Buffer): void {
    const fault = this.proxy.fault;
    const last = this.queue.at(-1)?.at ?? 0;
    this.queue.push({ at: Math.max(last, Date.now() + (fault.kind === 'latency' ? fault.ms : 0)), chunk });
    this.flush();
  }

  flush(): void {
    if (this.timer) return;
    while (this.queue.length && this.proxy.fault.kind !== 'blackhole') {
      const wait = this.queue[0]!.at - Date.now();
      if (wait > 0) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.flush();
        }, wait);
        return;
      }
      if (!this.to.destroyed) this.to.write(this.queue.shift()!.chunk);
      else this.queue.length = 0;
    }
  }
}

export class FaultProxy {
  fault: Fault = { kind: 'none' };
  private readonly pipes = new Set<Pipe>();
  private readonly lanes = new Set<Lane>();
  private resetTimer: NodeJS.Timeout | undefined;
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  /** A proxy on a free loopback port forwarding to `target`. */
  static async start(target: { host: string; port: number }): Promise<FaultProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const proxy = new FaultProxy(server, typeof address === 'object' && address ? address.port : 0);
    server.on('connection', (client) => proxy.accept(client, target));
    return proxy;
  }

  /** Replaces the current fault ('none' heals: held data is delivered). */
  set(fault: Fault): void {
    this.fault = fault;
    clearInterval(this.resetTimer);
    this.resetTimer = undefined;
    if (fault.kind === 'reset') {
      this.resetTimer = setInterval(() => {
        for (const pipe of this.pipes) if (Math.random() < fault.share) this.reset(pipe);
      }, 500);
    }
    for (const lane of this.lanes) lane.flush();
  }

  get connections(): number {
    return this.pipes.size;
  }

  async close(): Promise<void> {
    this.set({ kind: 'none' });
    for (const pipe of this.pipes) this.reset(pipe);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    const upstream = new Socket();
    const pipe = { client, upstream };
    this.pipes.add(pipe);
    const toUpstream = new Lane(upstream, this);
    const toClient = new Lane(client, this);
    this.lanes.add(toUpstream).add(toClient);
    const end = () => {
      this.pipes.delete(pipe);
      this.lanes.delete(toUpstream);
      this.lanes.delete(toClient);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => toUpstream.push(chunk));
    upstream.on('data', (chunk: Buffer) => toClient.push(chunk));
    upstream.connect(target.port, target.host);
    if (this.fault.kind === 'reset' && Math.random() < this.fault.share) this.reset(pipe);
  }

  private reset(pipe: Pipe): void {
    if (!pipe.client.destroyed) pipe.client.resetAndDestroy();
    pipe.upstream.destroy();
  }
}
