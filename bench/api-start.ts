// Time to ready of one API process (`--role api`, embedded defaults: PGlite in a data directory,
// in-memory store, no blog process), built (node --enable-source-maps dist/main.js) against the
// source under tsx (node --import tsx src/main.ts). Each variant starts once to create and migrate
// its data directory, then --runs more times, alternating (the build without --enable-source-maps
// too, for what the source maps cost); the medians go in docs/performance.md,
// "API start". Run `npm run build` first. Usage: tsx bench/api-start.ts [--runs 7]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const runs = Number(values.runs);

const variants = {
  built: ['--enable-source-maps', 'dist/main.js'],
  'built, no source maps': ['dist/main.js'],
  tsx: ['--import', 'tsx', 'src/main.ts'],
} as const;

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

interface Timing {
  listening: number;
  ready: number;
  /** CPU time (user + system) the process had used when it was ready: less at the mercy of a busy machine than wall time. */
  cpu: number;
}

/** The process's CPU time so far (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const [utime, stime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number);
  return (utime! + stime!) * 10;
}

/** Starts one process; ms until its "started" log line (listening) and until /api/health/ready answers 200. */
async function startOnce(args: readonly string[], dataDir: string): Promise<Timing> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...args, '--role', 'api'], {
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'info', DATA_DIR: dataDir, GENERAL_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let listening = 0;
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
    if (!listening && out.includes('"msg":"started"')) listening = performance.now() - started;
  });
  let ready = 0;
  let cpu = 0;
  while (!ready) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${out}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health/ready`).then((r) => r.ok, () => false);
    if (ok) {
      ready = performance.now() - started;
      cpu = cpuMs(child.pid!);
    } else await new Promise((r) => setTimeout(r, 20));
  }
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`exit ${code} after SIGTERM`);
  return { listening: Math.round(listening), ready: Math.round(ready), cpu };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dirs = Object.fromEntries(Object.keys(variants).map((name) => [name, mkdtempSync(path.join(tmpdir(), 'api-start-'))]));
const results: Record<string, Timing[]> = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
try {
  for (const [name, args] of Object.entries(variants)) {
    const first = await startOnce(args, dirs[name]!);
    process.stdout.write(`${name}: first start (creates and migrates the data directory) ${first.ready} ms\n`);
  }
  for (let i = 0; i < runs; i++) {
    for (const [name, args] of Object.entries(variants)) results[name]!.push(await startOnce(args, dirs[name]!));
  }
} finally {
  for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
}
for (const [name, timings] of Object.entries(results)) {
  const listening = median(timings.map((t) => t.listening));
  const ready = median(timings.map((t) => t.ready));
  const cpu = median(timings.map((t) => t.cpu));
  process.stdout.write(`${name}: listening ${listening} ms, ready ${ready} ms, CPU until ready ${cpu} ms (medians of ${runs}; ready: ${timings.map((t) => t.ready).join(', ')})\n`);
}
