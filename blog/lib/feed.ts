import { Feed } from 'feed'
import { listPublishedPostsWithHtml } from '../../cms/posts-read'
import { payload } from './payload'
import { absoluteBlogAsset, feedUrls, INDEX_DESCRIPTION, site, SITE_NAME } from './site'

/** RSS/Atom feed of published posts; on non-mainnet it advertises no posts. */
export async function buildFeed(): Promise<Feed> {
  const s = site()
  const posts = s.isMainnet ? await listPublishedPostsWithHtml(50, await payload()) : []
  const { rss, atom } = feedUrls()
  const host = new URL(s.appUrl).hostname
  const email = `blog@${host.includes('.') ? host : 'example.com'}`
  const newest = posts.reduce<Date | undefined>((acc, p) => {
    const d = new Date(p.updatedAt || p.publishedAt)
    return !acc || d > acc ? d : acc
  }, undefined)
  const feed = new Feed({
    title: SITE_NAME,
    description: INDEX_DESCRIPTION,
    id: `${s.blogUrl}/`,
    link: `${s.blogUrl}/`,
    language: 'en',
    image: `${s.blogUrl}/og-default.png`,
    copyright: `© ${SITE_NAME}`,
    updated: newest ?? new Date(0),
    generator: 'Platform Blog',
    feedLinks: { rss, atom },
  })
  for (const post of posts) {
    feed.addItem({
      title: post.title,
      id: post.url,
      link: post.url,
      description: post.excerpt || post.seoDescription,
      content: post.html,
      date: new Date(post.updatedAt || post.publishedAt),
      published: new Date(post.publishedAt),
      author: [{ name: post.author || SITE_NAME, email }],
      category: post.tags.map((t) => ({ name: t, term: t })),
      ...(post.imageUrl ? { image: absoluteBlogAsset(post.imageUrl) } : {}),
    })
  }
  return feed
}
