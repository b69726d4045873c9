import type { Payload } from 'payload'

type Closable = { end?: () => Promise<void>; close?: () => void | Promise<void>; on?: (event: 'error', fn: () => void) => void }

/**
 * Shuts a Payload instance down for real. `payload.destroy()` resets the adapter but leaves
 * the PostgreSQL pool (and the libsql client) open, which keeps the process alive and
 * breaks `DROP DATABASE`; this also ends those (waiting at most 2 s).
 */
export async function closeBlogPayload(payload: Payload): Promise<void> {
  const db = payload.db as unknown as { pool?: Closable; client?: Closable }
  await payload.destroy()
  // Idle clients killed by the server after this point must not crash the process.
  db.pool?.on?.('error', () => undefined)
  const close = async (): Promise<void> => {
    if (db.pool?.end) await db.pool.end()
    else if (db.client?.close) await db.client.close()
  }
  // pool.end() waits for checked-out clients; never let shutdown hang on one.
  await Promise.race([close().catch(() => undefined), new Promise((r) => setTimeout(r, 2000).unref())])
}

/**
 * Payload for a plain Node process (the backend's webhook route, scripts). Schema push is
 * off, so the database must be migrated: pass `migrate: true` to apply pending migrations
 * first (needs a TypeScript-capable loader such as tsx, since migrations are .ts files).
 * Close it with closeBlogPayload().
 */
export async function openBlogPayload(options: { migrate?: boolean } = {}): Promise<Payload> {
  const [{ getPayload }, { default: config }] = await Promise.all([import('payload'), import('./payload.config')])
  const payload = await getPayload({ config })
  if (options.migrate) await payload.db.migrate()
  return payload
}
