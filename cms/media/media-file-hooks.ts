import { readFile } from 'node:fs/promises'
import type { CollectionAfterChangeHook, CollectionAfterDeleteHook, CollectionBeforeChangeHook } from 'payload'
import { deleteMediaFile, putMediaFile } from './media-files'

/** Writes an uploaded file's bytes into the database, in the same transaction as its media row. */
export const storeUploadedBytes: CollectionBeforeChangeHook = async ({ data, req }) => {
  const file = req.file
  if (!file || typeof data.filename !== 'string') return data
  const bytes = file.data.length > 0 || !file.tempFilePath ? file.data : await readFile(file.tempFilePath)
  // A replaced file that kept its name: the new bytes take the name.
  await deleteMediaFile(req.payload, req, data.filename)
  await putMediaFile(req.payload, req, { filename: data.filename, mimeType: String(data.mimeType ?? file.mimetype), data: bytes })
  return data
}

/** A media row whose file was replaced under a new name drops the old bytes. */
export const dropReplacedBytes: CollectionAfterChangeHook = async ({ doc, previousDoc, req }) => {
  const before = (previousDoc as { filename?: unknown } | undefined)?.filename
  if (typeof before === 'string' && before !== doc.filename) await deleteMediaFile(req.payload, req, before)
  return doc
}

export const dropDeletedBytes: CollectionAfterDeleteHook = async ({ doc, req }) => {
  if (typeof doc.filename === 'string') await deleteMediaFile(req.payload, req, doc.filename)
  return doc
}
