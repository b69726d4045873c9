// Runs the Prisma CLI offline: `npm run prisma -- <args>`.
// - CHECKPOINT_DISABLE=1: no telemetry/update check.
// - PRISMA_SCHEMA_ENGINE_BINARY points at our stdio shim backed by @prisma/schema-engine-wasm,
//   so the CLI never tries to download the native schema engine.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');
const shim = fileURLToPath(new URL('./prisma-schema-engine.ts', import.meta.url));

export function prismaEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...base, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1', PRISMA_SCHEMA_ENGINE_BINARY: shim };
}

export function runPrisma(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  opts: { cwd?: string; quiet?: boolean } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: opts.cwd,
      stdio: opts.quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
      env: prismaEnv(env),
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runPrisma(process.argv.slice(2)).then((code) => process.exit(code));
}
