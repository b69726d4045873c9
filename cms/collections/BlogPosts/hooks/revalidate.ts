import type { CollectionAfterChangeHook, CollectionAfterDeleteHook } from 'payload'

/**
 * Inside the Next server, refresh the ISR cache (index, post, feeds, sitemap). With
 * trailingSlash, revalidatePath('/rss.xml') misses, so the whole layout is refreshed.
 * Outside Next (the backend process) this is a no-op; the publishing service calls the
 * revalidation endpoint instead. `context.disableRevalidate` switches it off for seeding.
 */
async function refresh(context: Record<string, unknown>): Promise<void> {
  if (context.disableRevalidate || !process.env.NEXT_RUNTIME) return
  try {
    const { revalidatePath } = await import('next/cache')
    revalidatePath('/', 'layout')
  } catch {
    // not inside a request scope of the Next server
  }
}

export const revalidateAfterChange: CollectionAfterChangeHook = async ({ doc, previousDoc, context }) => {
  if (doc._status === 'published' || previousDoc?._status === 'published') await refresh(context)
  return doc
}

export const revalidateAfterDelete: CollectionAfterDeleteHook = async ({ doc, context }) => {
  await refresh(context)
  return doc
}
