// The fixture Sui chain in its own process, for the ingest bench's fetch and end-to-end stages: a
// full node is another machine, so its serving work must not share the indexer's thread.
//   node --import tsx bench/chain-server.ts --seed=7 --events=20000 [--streak-tx-share=0.115] [--tick-ms=1000 --tick-events=20]   (prints READY <grpcUrl> <packageId>)
import { spawn } from 'node:child_process';
import { startSuiChainFixture } from '../test/fixtures/sui-chain/index';

export interface ChainProcess {
  /** The child's process id (its CPU time is read from /proc). */
  pid: number | undefined;
  grpcUrl: string;
  packageId: string;
  close(): Promise<void>;
}

/** Starts the fixture chain (same seed and size: the same chain as an in-process one) in a child process. */
export function startChainProcess(opts: { seed: number; events: number; streakTxShare?: number; tick?: { everyMs: number; events: number } }): Promise<ChainProcess> {
  const args = [
    `--seed=${opts.seed}`,
    `--events=${opts.events}`,
    ...(opts.streakTxShare === undefined ? [] : [`--streak-tx-share=${opts.streakTxShare}`]),
    ...(opts.tick ? [`--tick-ms=${opts.tick.everyMs}`, `--tick-events=${opts.tick.events}`] : []),
  ];
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/chain-server.ts', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const m = /READY (\S+) (\S+)/.exec(out);
      if (!m) return;
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      resolve({
        pid: child.pid,
        grpcUrl: m[1]!,
        packageId: m[2]!,
        close: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`chain server exited with ${code} before it was ready`)));
  });
}

const arg = (name: string): number | undefined => {
  const value = new RegExp(`--${name}=([\\d.]+)`).exec(process.argv.join(' '))?.[1];
  return value === undefined ? undefined : Number(value);
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const tickMs = arg('tick-ms');
  const tick = tickMs === undefined ? undefined : { everyMs: tickMs, events: arg('tick-events') ?? 10 };
  const chain = await startSuiChainFixture({ seed: arg('seed'), events: arg('events'), grpc: { maxPageSize: 1000 }, streakTxShare: arg('streak-tx-share'), tick });
  process.stdout.write(`READY ${chain.grpcUrl} ${chain.packageId}\n`);
  process.once('SIGTERM', () => void chain.close().then(() => process.exit(0)));
}
