import type { Payload, PayloadRequest } from 'payload'

/**
 * Intro fingerprints of the published posts other than the one given (by id or slug): what the
 * repeated-intro rule compares against, for the admin's save and for a partner delivery alike.
 */
export async function otherPublishedIntros(payload: Payload, other: { id?: number | string; slug?: string }, req?: PayloadRequest): Promise<string[]> {
  const found = await payload.find({
    collection: 'blog_posts',
    where: {
      and: [
        { _status: { equals: 'published' } },
        ...(other.id !== undefined ? [{ id: { not_equals: other.id } }] : []),
        ...(other.slug !== undefined ? [{ slug: { not_equals: other.slug } }] : []),
      ],
    },
    select: { introFingerprint: true },
    limit: 200,
    depth: 0,
    pagination: false,
    ...(req ? { req } : {}),
  })
  return found.docs.map((d) => String((d as { introFingerprint?: string }).introFingerprint ?? '')).filter(Boolean)
}
