import { spawn, type ChildProcess } from 'node:child_process';

export interface SpawnedApi {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Runs `src/main.ts` (or a test entry built on src/runtime/process.ts) as its own OS process, as
 * `npm start` does, and waits until its API listens.
 */
export async function spawnMain(args: string[], env: Record<string, string>, timeoutMs = 60_000, entry = 'src/main.ts'): Promise<SpawnedApi> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    env: { ...process.env, NODE_ENV: 'test', 'GENERAL.PORT': '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`process did not start in time:\n${out}`)), timeoutMs);
    const check = () => {
      // The "started" log line: the API answers from then on, before the ready banner (which waits for a blog process).
      const m = /"url":"http:\/\/[^"]+:(\d+)"[^\n]*"msg":"started"/.exec(out) ?? /api:\s+http:\/\/localhost:(\d+)\/api\/health/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`http://localhost:${m[1]}`);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`process exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
