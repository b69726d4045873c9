// npx tsx bench/api-footprint.ts [--runs 5]
// The API process's start time and memory on the embedded defaults (PGlite in a temporary
// DATA_DIR, in-process store, generated development secrets): `src/main.ts --role api` spawned
// as `npm start` runs it, timed from spawn to its "started" log line (listening) and to
// `/api/health/ready` answering 200 (wall clock, and the CPU time the process had used by then:
// steadier than the wall clock on a shared machine), then its VmRSS once ready and idle for 2 s,
// and its peak (VmHWM). The first start (creating and migrating the database) is not counted; each figure
// is the median of the runs after it. Figures in docs/performance.md (API process footprint).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, memoryMiB } from './proc-memory';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
const root = path.resolve(import.meta.dirname, '..');



/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat (clock ticks of 1/100 s on Linux). */
const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

interface Sample {
  listenMs: number;
  readyMs: number;
  readyCpuS: number;
  rssMiB: number;
  peakMiB: number;
}

async function once(dataDir: string): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, 'GENERAL.PORT': String(port), BLOG_PORT: String(await freePort()), LOG_FORMAT: 'json' };
  for (const key of ['DATABASE_URL', 'SHARED_STORE_URL', 'CACHE_STORE', 'BLOG_DATABASE_URL', 'NODE_ENV', 'NETWORK', 'BLOG_CMS_OPEN_AT_START']) delete env[key];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role', 'api'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  child.stderr.on('data', (c: Buffer) => (out += c));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    let listenMs = 0;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the API exited ${child.exitCode}:\n${out}`);
      if (!listenMs && out.includes('"msg":"started"')) listenMs = performance.now() - started;
      if (listenMs) {
        const ready = await fetch(`http://127.0.0.1:${port}/api/health/ready`).then((r) => r.status === 200, () => false);
        if (ready) break;
      }
      if (performance.now() - started > 120_000) throw new Error(`the API was not ready within 120 s:\n${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const readyMs = performance.now() - started;
    const readyCpuS = cpuSeconds(child.pid!);
    await new Promise((r) => setTimeout(r, 2000));
    return { listenMs, readyMs, readyCpuS, rssMiB: memoryMiB(child.pid!, 'VmRSS'), peakMiB: memoryMiB(child.pid!, 'VmHWM') };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

const dataDir = mkdtempSync(path.join(tmpdir(), 'api-footprint-'));
try {
  await once(dataDir); // creates and migrates the embedded databases
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    const s = await once(dataDir);
    samples.push(s);
    console.log(`run ${i + 1}: listening ${Math.round(s.listenMs)} ms, ready ${Math.round(s.readyMs)} ms (${s.readyCpuS.toFixed(1)} s CPU), RSS ${s.rssMiB.toFixed(0)} MiB, peak ${s.peakMiB.toFixed(0)} MiB`);
  }
  const m = (k: keyof Sample) => median(samples.map((s) => s[k]));
  console.log(`median of ${runs}: listening ${Math.round(m('listenMs'))} ms, ready ${Math.round(m('readyMs'))} ms (${m('readyCpuS').toFixed(1)} s CPU), RSS ${m('rssMiB').toFixed(0)} MiB, peak ${m('peakMiB').toFixed(0)} MiB`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
