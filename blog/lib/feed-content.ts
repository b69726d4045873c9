import type { PublishedPost } from '../../cms/posts-read'
import type { FeedChannel, FeedItem } from './feed-xml'
import { absoluteBlogAsset, feedUrls, INDEX_DESCRIPTION, site, SITE_NAME } from './site'

const updatedOf = (p: PublishedPost): Date => new Date(p.updatedAt || p.publishedAt)

/**
 * The channel and items of both feeds. `updated` is the newest post's update; with no posts it
 * is `now` (the render time: the build, then each revalidation), never the epoch.
 */
export function feedContent(posts: readonly PublishedPost[], now: Date = new Date()): { channel: FeedChannel; items: FeedItem[] } {
  const s = site()
  const { rss, atom } = feedUrls()
  const host = new URL(s.appUrl).hostname
  const email = `blog@${host.includes('.') ? host : 'example.com'}`
  const newest = posts.reduce<Date | undefined>((acc, p) => (!acc || updatedOf(p) > acc ? updatedOf(p) : acc), undefined)
  const channel: FeedChannel = {
    title: SITE_NAME,
    description: INDEX_DESCRIPTION,
    link: `${s.blogUrl}/`,
    rssUrl: rss,
    atomUrl: atom,
    language: 'en',
    imageUrl: `${s.blogUrl}/og-default.png`,
    copyright: `© ${SITE_NAME}`,
    generator: 'Platform Blog',
    updated: newest ?? now,
  }
  const items = posts.map(
    (post): FeedItem => ({
      title: post.title,
      url: post.url,
      summary: post.excerpt || post.seoDescription,
      contentHtml: post.html,
      updated: updatedOf(post),
      published: new Date(post.publishedAt),
      author: { name: post.author || SITE_NAME, email },
      tags: post.tags,
      ...(post.imageUrl && post.image ? { image: { url: absoluteBlogAsset(post.imageUrl), mimeType: post.image.mimeType, bytes: post.image.bytes } } : {}),
    }),
  )
  return { channel, items }
}

