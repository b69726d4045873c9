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

type Migrations = NonNullable<NonNullable<Parameters<Payload['db']['migrate']>[0]>['migrations']>

/**
 * The committed migrations of the configured database, loaded through the module system
 * (Payload's own loader imports the .ts files natively, which fails under vitest).
 */
export async function blogMigrations(payload: Payload): Promise<Migrations> {
  const kind = payload.db.name === 'postgres' ? 'postgres' : 'sqlite'
  const specifier = `./migrations/${kind}/index`
  const mod = (await import(/* @vite-ignore */ specifier)) as { migrations: Migrations }
  return mod.migrations
}

/** Applies pending blog migrations (idempotent). */
export async function migrateBlog(payload: Payload): Promise<void> {
  await payload.db.migrate({ migrations: await blogMigrations(payload) })
}

/**
 * Payload for a plain Node process (the backend's webhook route, scripts). Schema push is
 * off, so the database must be migrated: pass `migrate: true` to apply pending migrations
 * first. Close it with closeBlogPayload().
 */
export async function openBlogPayload(options: { migrate?: boolean } = {}): Promise<Payload> {
  const [{ getPayload }, { default: config }] = await Promise.all([import('payload'), import('./payload.config')])
  const payload = await getPayload({ config })
  if (options.migrate) await migrateBlog(payload)
  return payload
}
