// Builds @platform/client: ESM by esbuild (the realtime transports as chunks loaded on first use) and
// declarations by tsc. `npm run client:build` writes packages/client/dist; tests build into a staging
// directory of their own (`stageClientPackage`) and pack or bundle from there.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

export const CLIENT_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(CLIENT_DIR, '../..');

interface PackageJson {
  name: string;
  version: string;
  dependencies: Record<string, string>;
}
export const clientPackageJson = (): PackageJson => JSON.parse(readFileSync(path.join(CLIENT_DIR, 'package.json'), 'utf8')) as PackageJson;

/** Writes `<outDir>/*.js` (entries `index` and `rest`, shared and lazy chunks under `chunks/`) and the `.d.ts` files. */
export async function buildClient(outDir = path.join(CLIENT_DIR, 'dist')): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: CLIENT_DIR,
    entryPoints: { index: 'src/index.ts', rest: 'src/rest.ts' },
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    // the dependencies stay imports: the application's bundler (or Node) resolves them
    external: Object.keys(clientPackageJson().dependencies),
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: true,
    logLevel: 'error',
  });
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(CLIENT_DIR, 'tsconfig.json'), '--outDir', outDir], { stdio: 'inherit' });
}

/** A directory laid out as the published package (package.json and dist/), for `npm pack` or a bundler alias. */
export async function stageClientPackage(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  copyFileSync(path.join(CLIENT_DIR, 'package.json'), path.join(dir, 'package.json'));
  await buildClient(path.join(dir, 'dist'));
  return dir;
}

/** `npm pack` of a staged package: the tarball's path. */
export function packClient(stagedDir: string, destination: string): string {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: stagedDir, encoding: 'utf8' });
  const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
  return path.join(destination, filename);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildClient();
  process.stdout.write(`${clientPackageJson().name}: packages/client/dist built\n`);
}
