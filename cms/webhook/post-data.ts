import type { ArticleDelivery } from './types'

/** The post fields a partner article sets, published or held as a draft. */
export function partnerPostData(a: ArticleDelivery, content: unknown, current: { publishedAt?: string | null } | undefined) {
  return {
    title: a.title,
    slug: a.slug,
    excerpt: a.excerpt,
    seoDescription: a.seoDescription,
    content,
    tags: a.tags,
    author: a.author,
    publishedAt: a.publishedAt ?? current?.publishedAt ?? new Date().toISOString(),
    searchIntent: a.searchIntent ?? null,
    primaryAudience: a.primaryAudience ?? null,
    platformAngle: a.platformAngle ?? null,
    internalLinks: a.internalLinks,
    claimLedger: a.claimLedger,
    source: 'contentpartner' as const,
  }
}
