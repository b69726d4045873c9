import { createHash } from 'node:crypto'
import { eq as pgEq } from '@payloadcms/db-postgres/drizzle'
import { eq as sqliteEq } from '@payloadcms/db-sqlite/drizzle'
import type { Payload, PayloadRequest } from 'payload'
import { MEDIA_FILES_TABLE } from './media-files-table'

export interface MediaFile {
  filename: string
  mimeType: string
  /** Hex SHA-256 of the bytes: a strong validator, since the bytes under a filename never change. */
  etag: string
  data: Buffer
}

/**
 * The query builder calls shared by both dialects (drizzle's PostgreSQL and SQLite builders
 * take the same chain for these). Typed loosely on purpose: the table is added by a schema hook.
 */
interface Builder {
  insert(table: unknown): { values(row: Omit<MediaFile, 'data'> & { data: Buffer }): PromiseLike<unknown> }
  select(): { from(table: unknown): { where(cond: unknown): { limit(n: number): PromiseLike<MediaFile[]> } } }
  delete(table: unknown): { where(cond: unknown): PromiseLike<unknown> }
}
interface DrizzleAdapter {
  name: string
  drizzle: Builder
  sessions?: Record<string | number, { db?: Builder } | undefined>
  tables: Record<string, Record<string, unknown>>
}

function adapterOf(payload: Payload): DrizzleAdapter {
  return payload.db as unknown as DrizzleAdapter
}

/** The request's open transaction when it has one, so the bytes commit (or roll back) with the media row. */
async function builderFor(payload: Payload, req?: Partial<PayloadRequest>): Promise<Builder> {
  const adapter = adapterOf(payload)
  const id = req?.transactionID ? await req.transactionID : undefined
  return (id !== undefined ? adapter.sessions?.[id]?.db : undefined) ?? adapter.drizzle
}

function filenameIs(payload: Payload, filename: string): { table: unknown; cond: unknown } {
  const adapter = adapterOf(payload)
  const table = adapter.tables[MEDIA_FILES_TABLE]
  if (!table) throw new Error(`the ${MEDIA_FILES_TABLE} table is not in the blog database schema`)
  const eq = (adapter.name === 'postgres' ? pgEq : sqliteEq) as (a: unknown, b: unknown) => unknown
  return { table, cond: eq(table.filename, filename) }
}

export const etagOf = (data: Buffer): string => createHash('sha256').update(data).digest('hex')

export async function putMediaFile(payload: Payload, req: Partial<PayloadRequest> | undefined, file: Omit<MediaFile, 'etag'>): Promise<void> {
  const { table } = filenameIs(payload, file.filename)
  await (await builderFor(payload, req)).insert(table).values({ ...file, etag: etagOf(file.data) })
}

export async function readMediaFile(payload: Payload, filename: string): Promise<MediaFile | undefined> {
  const { table, cond } = filenameIs(payload, filename)
  const [row] = await adapterOf(payload).drizzle.select().from(table).where(cond).limit(1)
  return row ? { ...row, data: Buffer.from(row.data) } : undefined
}

export async function deleteMediaFile(payload: Payload, req: Partial<PayloadRequest> | undefined, filename: string): Promise<void> {
  const { table, cond } = filenameIs(payload, filename)
  await (await builderFor(payload, req)).delete(table).where(cond)
}
