import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { htmlPagePolicy } from '../security';
import { bundleConsole } from './bundle';

/** The console's files as scripts/build.ts bundled them into dist/ (name → content); undefined when run from the sources. */
declare const CONSOLE_FILES: Record<string, string> | undefined;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The console's page: its scripts and stylesheet from this server only (no inline script or
 * style), calls to this origin's API, wallet icons as data: URLs (the Wallet Standard's form).
 */
export const CONSOLE_CSP = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
};

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

function assetsOf(files: Record<string, string>): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const [name, text] of Object.entries(files)) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    const body = Buffer.from(text);
    assets.set(name, { body, type, etag: `"${createHash('sha1').update(body).digest('base64url')}"` });
  }
  return assets;
}

let loading: Promise<Map<string, Asset>> | undefined;

/**
 * The console's files, once per process: the built ones in dist/, or (run from the sources) bundled
 * on the first request, so neither start-up nor a process that never serves the console pays the
 * bundling. The set of servable names is fixed from then on. A failed bundling is retried by the next request.
 */
function consoleAssets(): Promise<Map<string, Asset>> {
  loading ??= (typeof CONSOLE_FILES !== 'undefined' ? Promise.resolve(CONSOLE_FILES) : bundleConsole().then((bundle) => bundle.files)).then(assetsOf, (err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/**
 * The operator console at `/console/` (docs/decisions.md, "Operator console"): a page on the API
 * origin that logs an operator in with a wallet and calls `/api/admin/…` from the browser with that
 * wallet's own access token. The page links its files relatively, so a path prefix keeps working.
 */
export function registerConsole(app: FastifyInstance): void {
  const route = { schema: { hide: true }, config: { securityHeaders: htmlPagePolicy(CONSOLE_CSP) } } as const;
  const send = async (request: FastifyRequest, reply: FastifyReply, name: string) => {
    const asset = (await consoleAssets()).get(name);
    if (!asset) return reply.callNotFound();
    // Revalidated on every load, so a deploy shows at once; unchanged files answer 304.
    reply.header('cache-control', 'no-cache').header('etag', asset.etag);
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.type(asset.type).send(asset.body);
  };
  app.get('/console', route, async (_request, reply) => reply.redirect('console/', 301));
  app.get('/console/', route, async (request, reply) => send(request, reply, 'index.html'));
  app.get<{ Params: { file: string } }>('/console/:file', route, async (request, reply) => send(request, reply, request.params.file));
}
