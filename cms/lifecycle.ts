import type { Payload } from 'payload'

/** The parts of a pg Pool this file touches (`_clients` is pg-pool's own list of live clients). */
interface PgPoolLike {
  end(): Promise<void>
  on(event: 'error', fn: (err: unknown) => void): void
  _clients?: Array<{ release?: (destroy?: boolean) => void }>
}
interface CachedPayload {
  payload: Payload | null
  ws: { close(): void } | null
}

/** Longest wait for the database handles to close; the timer is ref'd, so the await always settles. */
const CLOSE_TIMEOUT_MS = 2000

/**
 * Shuts a Payload instance down for real, so a plain Node process can exit and a later
 * openBlogPayload() in the same process gets a fresh instance.
 *
 * - `payload.destroy()` resets the adapter but leaves the PostgreSQL pool (or the libsql client)
 *   open. The postgres adapter also checks one client out at connect and never returns it, so
 *   `pool.end()` alone waits forever: the checked-out clients are released (destroyed) here.
 *   That wait used to be cut by an unref'd 2 s timer, which only fired while that leaked
 *   client's socket kept the process alive: when PostgreSQL had closed the connection (dropped
 *   database, restart, terminated backend), nothing held the event loop, and a script awaiting
 *   this at top level ended with exit 13 (unsettled top-level await): the intermittent
 *   `blog: migrations failed (exit 13)`.
 * - getPayload() caches the instance (and, outside production, a Next HMR websocket) in
 *   `global._payload`; the entry is dropped so the destroyed instance is never handed out again.
 */
export async function closeBlogPayload(payload: Payload): Promise<void> {
  const db = payload.db as unknown as { pool?: PgPoolLike; client?: { close?: () => void | Promise<void> } }
  await payload.destroy()
  forgetCachedPayload(payload)
  const close = async (): Promise<void> => {
    if (db.pool) {
      // Clients killed by the server from here on must not crash the process.
      db.pool.on('error', () => undefined)
      const ended = db.pool.end()
      // end() has already dropped the idle clients; what is left is checked out.
      for (const client of [...(db.pool._clients ?? [])]) client.release?.(true)
      await ended
    } else {
      await db.client?.close?.()
    }
  }
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)
  })
  await Promise.race([close().catch(() => undefined), timedOut])
  clearTimeout(timer)
}

function forgetCachedPayload(payload: Payload): void {
  const cache = (globalThis as { _payload?: Map<string, CachedPayload> })._payload
  for (const [key, entry] of cache ?? []) {
    if (entry.payload !== payload) continue
    entry.ws?.close()
    cache!.delete(key)
  }
}

type Migrations = NonNullable<NonNullable<Parameters<Payload['db']['migrate']>[0]>['migrations']>

/**
 * The committed migrations of the configured database, loaded through the module system
 * (Payload's own loader imports the .ts files natively, which fails under vitest). A template
 * literal: esbuild bundles every file it can match (the API's dist/ build, scripts/build.ts),
 * while tsc does not follow it into the migrations.
 */
export async function blogMigrations(payload: Payload): Promise<Migrations> {
  const kind = payload.db.name === 'postgres' ? 'postgres' : 'sqlite'
  const mod = (await import(/* @vite-ignore */ `./migrations/${kind}/index.ts`)) as { migrations: Migrations }
  return mod.migrations
}

/** Applies pending blog migrations (idempotent). */
export async function migrateBlog(payload: Payload): Promise<void> {
  await payload.db.migrate({ migrations: await blogMigrations(payload) })
}

/**
 * Payload's modules and the blog's config, loaded (not opened): nearly all of the seconds that
 * opening Payload costs, spent in module evaluation that holds the event loop.
 */
export function loadBlogPayloadModules() {
  return Promise.all([import('payload'), import('./payload.config')])
}

/**
 * Payload for a plain Node process (the backend's webhook route, scripts). Schema push is
 * off, so the database must be migrated: pass `migrate: true` to apply pending migrations
 * first. Close it with closeBlogPayload().
 */
export async function openBlogPayload(options: { migrate?: boolean } = {}): Promise<Payload> {
  const [{ getPayload }, { default: config }] = await loadBlogPayloadModules()
  const payload = await getPayload({ config })
  // A pooled connection the server closes (restart, terminated backend) is an 'error' on the
  // pool; Payload does not listen, and an unhandled 'error' would end this process. The pool
  // replaces the connection on next use.
  ;(payload.db as unknown as { pool?: PgPoolLike }).pool?.on('error', (err: unknown) =>
    // pg attaches the whole client to the error: log the message only.
    payload.logger.warn(`blog database: a pooled connection was closed (${err instanceof Error ? err.message : String(err)})`),
  )
  if (options.migrate) await migrateBlog(payload)
  return payload
}
