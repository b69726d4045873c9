import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { readBlogSettings } from '../settings'
import { etagOf, type MediaFile } from './media-files'

/** Where media files were written before their bytes moved into the database. */
const legacyMediaDir = (dataDir = readBlogSettings().dataDir): string => path.join(dataDir, 'media')

export interface LegacyMediaRow {
  filename: unknown
  mime_type: unknown
}

/**
 * The files of existing media rows, read one at a time from `${DATA_DIR}/media` (for the
 * migration that copies them into the database). A row whose file is missing is skipped with a
 * warning: its URL answered 404 before and still does.
 */
export async function* legacyMediaFiles(rows: readonly LegacyMediaRow[], warn: (message: string) => void): AsyncGenerator<MediaFile> {
  const dir = legacyMediaDir()
  for (const row of rows) {
    if (typeof row.filename !== 'string' || typeof row.mime_type !== 'string') continue
    const file = path.resolve(dir, row.filename)
    if (!file.startsWith(dir + path.sep)) continue
    let data: Buffer
    try {
      data = await readFile(file)
    } catch {
      warn(`media file ${row.filename} is not in ${dir}: not copied into the database`)
      continue
    }
    yield { filename: row.filename, mimeType: row.mime_type, etag: etagOf(data), data }
  }
}
