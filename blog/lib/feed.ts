import { listPublishedPostsWithHtml } from '../../cms/posts-read'
import { isIndexable } from '../../src/surfaces/shared/site'
import { feedContent } from './feed-content'
import { renderAtom, renderRss } from './feed-xml'
import { payload } from './payload'
import { site } from './site'

export interface BlogFeed {
  rss(): string
  atom(): string
}

/** RSS/Atom feed of the newest 50 published posts; on non-mainnet it advertises no posts. */
export async function buildFeed(): Promise<BlogFeed> {
  const posts = isIndexable(site()) ? await listPublishedPostsWithHtml(50, await payload()) : []
  const { channel, items } = feedContent(posts)
  return { rss: () => renderRss(channel, items), atom: () => renderAtom(channel, items) }
}
