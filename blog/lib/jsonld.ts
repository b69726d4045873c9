import type { PublishedPost } from '../../cms/posts-read'
import { blogPostPath } from '../../src/surfaces/shared/blog'
import { absoluteBlogAsset, canonical, INDEX_DESCRIPTION, INDEX_TITLE, site, SITE_NAME } from './site'

type Json = Record<string, unknown>

function breadcrumbs(items: { name: string; url: string }[]): Json {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: items.map((it, i) => ({ '@type': 'ListItem', position: i + 1, name: it.name, item: it.url })),
  }
}

/** WebPage and breadcrumbs of an index page (`/` or `/page/<n>/`). */
export function indexJsonLd(pathInBlog = '/'): Json {
  const url = canonical(pathInBlog)
  return {
    '@context': 'https://schema.org',
    '@graph': [
      { '@type': 'WebPage', '@id': url, url, name: INDEX_TITLE, description: INDEX_DESCRIPTION, isPartOf: { '@type': 'WebSite', name: SITE_NAME, url: canonical('/') } },
      breadcrumbs([
        { name: 'Home', url: `${site().appUrl}/` },
        { name: 'Blog', url: canonical('/') },
      ]),
    ],
  }
}

export function postJsonLd(post: PublishedPost): Json {
  const url = canonical(blogPostPath(post.slug))
  return {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'BlogPosting',
        '@id': url,
        mainEntityOfPage: url,
        url,
        headline: post.title,
        description: post.seoDescription,
        datePublished: post.publishedAt,
        dateModified: post.updatedAt || post.publishedAt,
        author: { '@type': 'Person', name: post.author || SITE_NAME },
        publisher: { '@type': 'Organization', name: SITE_NAME },
        keywords: post.tags.join(', ') || undefined,
        ...(post.imageUrl ? { image: absoluteBlogAsset(post.imageUrl) } : {}),
      },
      breadcrumbs([
        { name: 'Home', url: `${site().appUrl}/` },
        { name: 'Blog', url: canonical('/') },
        { name: post.title, url },
      ]),
    ],
  }
}

/** JSON for a <script type="application/ld+json"> (no raw "<" so it cannot close the tag). */
export function jsonLdString(data: Json): string {
  return JSON.stringify(data).replace(/</g, '\\u003c')
}
