import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'dotenv';

/**
 * Env files in `dir`, later files override earlier ones, the process environment overrides all:
 *   .env, .env.<NODE_ENV>, .env.<NETWORK>, .env.<NODE_ENV>.<NETWORK>, .env.local
 * NODE_ENV and NETWORK themselves are taken from the process environment, else from `.env`.
 */
export function envFileOrder(nodeEnv: string, network: string): string[] {
  return ['.env', `.env.${nodeEnv}`, `.env.${network}`, `.env.${nodeEnv}.${network}`, '.env.local'];
}

export function readLayeredEnv(dir: string, processEnv: Record<string, string | undefined>): { env: Record<string, string>; files: string[] } {
  const base = readEnvFile(join(/*turbopackIgnore: true*/ dir, '.env'));
  const nodeEnv = processEnv.NODE_ENV ?? base.NODE_ENV ?? 'development';
  const network = processEnv.NETWORK ?? base.NETWORK ?? 'testnet';
  const merged: Record<string, string> = {};
  const files: string[] = [];
  for (const file of envFileOrder(nodeEnv, network)) {
    const path = join(/*turbopackIgnore: true*/ dir, file);
    if (!existsSync(path)) continue;
    Object.assign(merged, readEnvFile(path));
    files.push(file);
  }
  for (const [k, v] of Object.entries(processEnv)) if (v !== undefined) merged[k] = v;
  return { env: merged, files };
}

function readEnvFile(path: string): Record<string, string> {
  return existsSync(path) ? parse(readFileSync(path)) : {};
}
