import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The console's folder (src/http/console): app/ is its TypeScript, assets/ its page and stylesheet. */
const DIR = fileURLToPath(new URL('./', import.meta.url));
/** The page and stylesheet, served as written. */
const STATIC = ['index.html', 'console.css'];

export interface ConsoleBundle {
  /** File name → content: index.html, console.css, main.js (the page's one module) and main.js.map. */
  files: Record<string, string>;
  /** Every source file the bundle was made of (absolute paths), for the build's freshness stamp. */
  inputs: string[];
}

/**
 * The operator console as served: app/main.ts and what it imports (the API client, the types
 * generated from the OpenAPI document) bundled by esbuild into one minified browser module with
 * its source map, beside the page and stylesheet. scripts/build.ts runs it at build time and puts
 * the files in dist/ (define CONSOLE_FILES, ./index.ts); a server run from the sources (tests,
 * `npm run dev`) runs it on the first request for the console.
 */
export async function bundleConsole(): Promise<ConsoleBundle> {
  // Loaded only at build time or from the sources: production never imports esbuild.
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: DIR,
    entryPoints: { main: path.join(DIR, 'app/main.ts') },
    bundle: true,
    write: false,
    outdir: DIR,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    logLevel: 'silent',
  });
  const files: Record<string, string> = {};
  for (const output of result.outputFiles) files[path.basename(output.path)] = output.text;
  if (!files['main.js'] || !files['main.js.map']) throw new Error('console bundle: esbuild produced no main.js');
  for (const name of STATIC) files[name] = readFileSync(path.join(DIR, 'assets', name), 'utf8');
  const inputs = [...Object.keys(result.metafile.inputs).map((file) => path.resolve(DIR, file)), ...STATIC.map((name) => path.join(DIR, 'assets', name))];
  return { files, inputs };
}
