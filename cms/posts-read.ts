import type { Payload } from 'payload'
import { BLOG_DESCRIPTION_MAX, blogCanonical, blogPostPath } from '../src/surfaces/shared/blog'
import { assetUrl } from './media/asset-url'
import type { BlogPost, Media } from './payload-types'
import { renderContentHtml } from './render/html'
import { readBlogSettings } from './settings'

/** Public view of a published post (what the backend's GraphQL and the blog pages read). */
export interface PublishedPostSummary {
  id: string
  slug: string
  title: string
  excerpt: string
  seoDescription: string
  author: string
  tags: string[]
  publishedAt: string
  updatedAt: string
  /** Canonical URL with trailing slash. */
  url: string
  /** Image path under /blog/assets/blog/db/, or an external URL, or null. */
  imageUrl: string | null
  /** Type, size, pixel dimensions and alt text of an uploaded image (null for an external URL or none). */
  image: { mimeType: string; bytes: number; width: number | null; height: number | null; alt: string } | null
}

export interface PublishedPost extends PublishedPostSummary {
  /** Rendered body HTML (social links carry rel="nofollow noopener noreferrer"). */
  html: string
  internalLinks: { url: string; label: string }[]
}

export interface PublishedPostPage {
  docs: PublishedPostSummary[]
  page: number
  limit: number
  totalDocs: number
  totalPages: number
  hasNextPage: boolean
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v))

/** The uploaded hero (populated at depth 1), if any. */
const heroOf = (post: Pick<BlogPost, 'heroImage'>): Media | undefined => (post.heroImage && typeof post.heroImage === 'object' ? post.heroImage : undefined)

function imageOf(post: Pick<BlogPost, 'heroImage' | 'imageUrl'>): string | null {
  const hero = heroOf(post)
  if (hero?.filename) return assetUrl(hero.filename)
  return post.imageUrl || null
}

function uploadedImage(post: Pick<BlogPost, 'heroImage'>): PublishedPostSummary['image'] {
  const hero = heroOf(post)
  if (!hero?.filename || !hero.mimeType || typeof hero.filesize !== 'number') return null
  return { mimeType: hero.mimeType, bytes: hero.filesize, width: hero.width ?? null, height: hero.height ?? null, alt: hero.alt }
}

/** The columns a summary reads: a list never loads a post's body, its links or its editorial ledger. */
const SUMMARY_FIELDS = {
  slug: true,
  title: true,
  excerpt: true,
  seoDescription: true,
  author: true,
  tags: true,
  publishedAt: true,
  createdAt: true,
  updatedAt: true,
  heroImage: true,
  imageUrl: true,
} as const

type SummaryFields = Pick<BlogPost, 'id' | keyof typeof SUMMARY_FIELDS>

function toSummary(post: SummaryFields): PublishedPostSummary {
  const settings = readBlogSettings()
  const slug = str(post.slug)
  return {
    id: str(post.id),
    slug,
    title: post.title,
    excerpt: str(post.excerpt),
    seoDescription: post.seoDescription || str(post.excerpt).slice(0, BLOG_DESCRIPTION_MAX),
    author: str(post.author),
    tags: (post.tags ?? []).filter(Boolean),
    publishedAt: post.publishedAt || post.createdAt,
    updatedAt: post.updatedAt,
    url: blogCanonical(settings.blogUrl, blogPostPath(slug)),
    imageUrl: imageOf(post),
    image: uploadedImage(post),
  }
}

async function resolvePayload(payload?: Payload): Promise<Payload> {
  if (payload) return payload
  const [{ getPayload }, { default: config }] = await Promise.all([import('payload'), import('./payload.config')])
  return getPayload({ config })
}

const PUBLISHED = { _status: { equals: 'published' } } as const
/** Newest first; the id breaks ties, so posts published at the same instant keep one order across pages. */
const NEWEST_FIRST = ['-publishedAt', '-id']

/** Published posts, newest first. `page` starts at 1; `limit` is clamped to 1..100. */
export async function listPublishedPosts(
  { page = 1, limit = 20 }: { page?: number; limit?: number } = {},
  payload?: Payload,
): Promise<PublishedPostPage> {
  const p = await resolvePayload(payload)
  const safeLimit = Math.min(100, Math.max(1, Math.trunc(limit) || 20))
  const safePage = Math.max(1, Math.trunc(page) || 1)
  // First the page's ids, from blog_posts' own columns only; then those posts' summaries. In one
  // query, PostgreSQL may join every published post's tags before the sort and the limit (it did
  // on stale statistics: 140–390 ms a page at 1,400 posts), which no plan can do here.
  const res = await p.find({
    collection: 'blog_posts',
    where: PUBLISHED,
    sort: NEWEST_FIRST,
    page: safePage,
    limit: safeLimit,
    depth: 0,
    draft: false,
    overrideAccess: false,
    select: { publishedAt: true },
  })
  const ids = res.docs.map((doc) => doc.id)
  const rows = ids.length
    ? await p.find({
        collection: 'blog_posts',
        where: { and: [PUBLISHED, { id: { in: ids } }] },
        pagination: false,
        depth: 1,
        draft: false,
        overrideAccess: false,
        select: SUMMARY_FIELDS,
      })
    : { docs: [] }
  const byId = new Map(rows.docs.map((doc) => [doc.id, doc]))
  return {
    // (a post unpublished between the two reads is left out)
    docs: ids.flatMap((id) => {
      const doc = byId.get(id)
      return doc ? [toSummary(doc)] : []
    }),
    page: res.page ?? safePage,
    limit: safeLimit,
    totalDocs: res.totalDocs,
    totalPages: res.totalPages,
    hasNextPage: res.hasNextPage,
  }
}

/** One published post by slug, or null when absent or not published. */
export async function getPublishedPostBySlug(slug: string, payload?: Payload): Promise<PublishedPost | null> {
  if (!/^[a-z0-9-]{1,80}$/.test(slug)) return null
  const p = await resolvePayload(payload)
  const res = await p.find({
    collection: 'blog_posts',
    where: { and: [PUBLISHED, { slug: { equals: slug } }] },
    limit: 1,
    depth: 1,
    draft: false,
    overrideAccess: false,
  })
  const post = res.docs[0]
  return post ? toFull(post) : null
}

function toFull(post: BlogPost): PublishedPost {
  return {
    ...toSummary(post),
    html: renderContentHtml(post.content, readBlogSettings().social),
    internalLinks: (post.internalLinks ?? [])
      .map((l) => ({ url: l.url.replace(/^\/blog\/blog\//, '/blog/'), label: l.label }))
      .filter((l) => l.url),
  }
}

/** Newest published posts with rendered HTML (feeds). */
export async function listPublishedPostsWithHtml(limit = 50, payload?: Payload): Promise<PublishedPost[]> {
  const p = await resolvePayload(payload)
  const res = await p.find({
    collection: 'blog_posts',
    where: PUBLISHED,
    sort: NEWEST_FIRST,
    limit: Math.min(200, Math.max(1, limit)),
    depth: 1,
    draft: false,
    overrideAccess: false,
  })
  return res.docs.map(toFull)
}

/** Slug and last modification of every published post (sitemap). */
export async function listPublishedSlugs(payload?: Payload): Promise<{ slug: string; updatedAt: string }[]> {
  const p = await resolvePayload(payload)
  const res = await p.find({
    collection: 'blog_posts',
    where: PUBLISHED,
    sort: NEWEST_FIRST,
    pagination: false,
    select: { slug: true, updatedAt: true },
    depth: 0,
    draft: false,
    overrideAccess: false,
  })
  return res.docs.map((d) => ({ slug: str(d.slug), updatedAt: str(d.updatedAt) }))
}
