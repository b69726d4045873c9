import { spawn, type ChildProcess } from 'node:child_process';
import { BUILT_MAIN_ARGS } from './built-main';

export interface SpawnedApi {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Runs `src/main.ts` built (test/helpers/built-main.ts), a test entry built on
 * src/runtime/process.ts under tsx, or a built entry (`.js`) as `npm start` does, as its own OS
 * process, and waits until its API listens.
 */
export async function spawnMain(args: string[], env: Record<string, string>, timeoutMs = 60_000, entry = 'src/main.ts'): Promise<SpawnedApi> {
  const nodeArgs = entry === 'src/main.ts' ? BUILT_MAIN_ARGS : entry.endsWith('.js') ? ['--enable-source-maps', entry] : ['--import', 'tsx', entry];
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
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
