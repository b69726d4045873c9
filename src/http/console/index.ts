import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { htmlPagePolicy } from '../security';

/** The console's files: HTML, ES modules and CSS, served as they are (no build step). */
const ASSETS_DIR = fileURLToPath(new URL('./assets/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
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

/** Every file of the assets folder, read once at start: the set of servable names is fixed. */
function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(ASSETS_DIR)) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    const body = readFileSync(join(ASSETS_DIR, name));
    assets.set(name, { body, type, etag: `"${createHash('sha1').update(body).digest('base64url')}"` });
  }
  return assets;
}

/**
 * The operator console at `/console/` (docs/decisions.md, "Operator console"): a page on the API
 * origin that logs an operator in with a wallet and calls `/api/admin/…` from the browser with that
 * wallet's own access token. The page links its files relatively, so a path prefix keeps working.
 */
export function registerConsole(app: FastifyInstance): void {
  const assets = loadAssets();
  const route = { schema: { hide: true }, config: { securityHeaders: htmlPagePolicy(CONSOLE_CSP) } } as const;
  const send = (request: FastifyRequest, reply: FastifyReply, asset: Asset | undefined) => {
    if (!asset) return reply.callNotFound();
    // Revalidated on every load, so a deploy shows at once; unchanged files answer 304.
    reply.header('cache-control', 'no-cache').header('etag', asset.etag);
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.type(asset.type).send(asset.body);
  };
  app.get('/console', route, async (_request, reply) => reply.redirect('console/', 301));
  app.get('/console/', route, async (request, reply) => send(request, reply, assets.get('index.html')));
  app.get<{ Params: { file: string } }>('/console/:file', route, async (request, reply) => send(request, reply, assets.get(request.params.file)));
}
