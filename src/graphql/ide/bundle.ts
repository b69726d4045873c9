import { fileURLToPath } from 'node:url';

/** The GraphiQL page's script and stylesheet, built from the installed packages (no CDN). */
export interface IdeBundle {
  js: string;
  css: string;
}

const ENTRY = fileURLToPath(new URL('./browser.ts', import.meta.url));

/** The page's own layout, in the stylesheet: the page's policy allows no inline style. */
const PAGE_CSS = 'html,body,#graphiql{height:100%;margin:0}';

let bundling: Promise<IdeBundle> | undefined;

/**
 * Bundled once per process, on the first request for the page: a development convenience, so
 * neither start-up nor a process that never serves it pays the second or two esbuild takes.
 * A failed build is retried by the next request.
 */
export function ideBundle(): Promise<IdeBundle> {
  bundling ??= build().catch((err: unknown) => {
    bundling = undefined;
    throw err;
  });
  return bundling;
}

async function build(): Promise<IdeBundle> {
  // Loaded only where the IDE is on: production never imports esbuild.
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: { graphiql: ENTRY },
    bundle: true,
    write: false,
    outdir: 'ide',
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const output = (extension: string) => result.outputFiles.find((f) => f.path.endsWith(extension))?.text;
  const js = output('.js');
  const css = output('.css');
  if (js === undefined || css === undefined) throw new Error('GraphiQL bundle: esbuild produced no script or stylesheet');
  return { js, css: `${css}\n${PAGE_CSS}\n` };
}
