import type { CollectionBeforeChangeHook } from 'payload'

/**
 * Mirrors Payload's draft state into the plain `status` column (`published` rows are public)
 * and stamps publishedAt on first publish.
 */
export const syncStatus: CollectionBeforeChangeHook = ({ data }) => {
  const status = data._status === 'published' ? 'published' : 'draft'
  data.status = status
  if (status === 'published' && !data.publishedAt) data.publishedAt = new Date().toISOString()
  return data
}
