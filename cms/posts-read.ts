import type { Payload } from 'payload'
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

type Row = Record<string, unknown>
const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v))

export const ASSET_PREFIX = '/blog/assets/blog/db/'

function imageOf(row: Row): string | null {
  const hero = row.heroImage
  if (hero && typeof hero === 'object' && 'filename' in hero && (hero as Row).filename) {
    return `${ASSET_PREFIX}${encodeURIComponent(str((hero as Row).filename))}`
  }
  return str(row.imageUrl) || null
}

function toSummary(row: Row): PublishedPostSummary {
  const settings = readBlogSettings()
  const slug = str(row.slug)
  return {
    id: str(row.id),
    slug,
    title: str(row.title),
    excerpt: str(row.excerpt),
    seoDescription: str(row.seoDescription) || str(row.excerpt).slice(0, 159),
    author: str(row.author),
    tags: Array.isArray(row.tags) ? row.tags.map(str).filter(Boolean) : [],
    publishedAt: str(row.publishedAt) || str(row.createdAt),
    updatedAt: str(row.updatedAt),
    url: `${settings.blogUrl}/posts/${slug}/`,
    imageUrl: imageOf(row),
  }
}

async function resolvePayload(payload?: Payload): Promise<Payload> {
  if (payload) return payload
  const [{ getPayload }, { default: config }] = await Promise.all([import('payload'), import('./payload.config')])
  return getPayload({ config })
}

const PUBLISHED = { _status: { equals: 'published' } } as const

/** Published posts, newest first. `page` starts at 1; `limit` is clamped to 1..100. */
export async function listPublishedPosts(
  { page = 1, limit = 20 }: { page?: number; limit?: number } = {},
  payload?: Payload,
): Promise<PublishedPostPage> {
  const p = await resolvePayload(payload)
  const safeLimit = Math.min(100, Math.max(1, Math.trunc(limit) || 20))
  const safePage = Math.max(1, Math.trunc(page) || 1)
  const res = await p.find({
    collection: 'blog_posts',
    where: PUBLISHED,
    sort: '-publishedAt',
    page: safePage,
    limit: safeLimit,
    depth: 1,
    draft: false,
    overrideAccess: false,
  })
  return {
    docs: res.docs.map((d) => toSummary(d as unknown as Row)),
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
  const row = res.docs[0] as unknown as Row | undefined
  return row ? toFull(row) : null
}

function toFull(row: Row): PublishedPost {
  const links = Array.isArray(row.internalLinks) ? (row.internalLinks as Row[]) : []
  return {
    ...toSummary(row),
    html: renderContentHtml(row.content, readBlogSettings().social),
    internalLinks: links
      .map((l) => ({ url: str(l.url).replace(/^\/blog\/blog\//, '/blog/'), label: str(l.label) }))
      .filter((l) => l.url),
  }
}

/** Newest published posts with rendered HTML (feeds). */
export async function listPublishedPostsWithHtml(limit = 50, payload?: Payload): Promise<PublishedPost[]> {
  const p = await resolvePayload(payload)
  const res = await p.find({
    collection: 'blog_posts',
    where: PUBLISHED,
    sort: '-publishedAt',
    limit: Math.min(200, Math.max(1, limit)),
    depth: 1,
    draft: false,
    overrideAccess: false,
  })
  return res.docs.map((d) => toFull(d as unknown as Row))
}

/** Slug and last modification of every published post (sitemap). */
export async function listPublishedSlugs(payload?: Payload): Promise<{ slug: string; updatedAt: string }[]> {
  const p = await resolvePayload(payload)
  const res = await p.find({
    collection: 'blog_posts',
    where: PUBLISHED,
    sort: '-publishedAt',
    pagination: false,
    select: { slug: true, updatedAt: true },
    depth: 0,
    draft: false,
    overrideAccess: false,
  })
  return res.docs.map((d) => ({ slug: str((d as Row).slug), updatedAt: str((d as Row).updatedAt) }))
}
