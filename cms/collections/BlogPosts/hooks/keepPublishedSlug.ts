import { ValidationError, type CollectionBeforeChangeHook } from 'payload'

/** A published post's slug is its public URL: it may not change afterwards. */
export const keepPublishedSlug: CollectionBeforeChangeHook = ({ data, originalDoc, req }) => {
  const wasPublished = originalDoc?._status === 'published' || originalDoc?.status === 'published'
  if (wasPublished && data.slug && originalDoc?.slug && data.slug !== originalDoc.slug) {
    throw new ValidationError({
      collection: 'blog_posts',
      errors: [{ path: 'slug', message: `The slug of a published post is stable; keep "${originalDoc.slug}".` }],
      req,
    })
  }
  return data
}
