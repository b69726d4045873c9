import { customType, pgTable, varchar } from '@payloadcms/db-postgres/drizzle/pg-core'
import type { PostgresAdapterArgs } from '@payloadcms/db-postgres'
import { blob, sqliteTable, text } from '@payloadcms/db-sqlite/drizzle/sqlite-core'
import type { SQLiteAdapterArgs } from '@payloadcms/db-sqlite'

/** The table that holds each media file's bytes, beside Payload's `media` rows (one row per filename). */
export const MEDIA_FILES_TABLE = 'media_files'

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' })

/** Adds the bytes table to Payload's PostgreSQL schema, so migrations and the query builder know it. */
export const postgresMediaFiles: NonNullable<PostgresAdapterArgs['afterSchemaInit']>[number] = ({ schema }) => {
  schema.tables[MEDIA_FILES_TABLE] = pgTable(MEDIA_FILES_TABLE, {
    filename: varchar('filename').primaryKey(),
    mimeType: varchar('mime_type').notNull(),
    etag: varchar('etag').notNull(),
    data: bytea('data').notNull(),
  }) as unknown as (typeof schema.tables)[string] // Payload's types come from another copy of drizzle-orm
  return schema
}

/** The same table on SQLite (a blob column). */
export const sqliteMediaFiles: NonNullable<SQLiteAdapterArgs['afterSchemaInit']>[number] = ({ schema }) => {
  schema.tables[MEDIA_FILES_TABLE] = sqliteTable(MEDIA_FILES_TABLE, {
    filename: text('filename').primaryKey(),
    mimeType: text('mime_type').notNull(),
    etag: text('etag').notNull(),
    data: blob('data', { mode: 'buffer' }).notNull(),
  }) as unknown as (typeof schema.tables)[string] // Payload's types come from another copy of drizzle-orm
  return schema
}
