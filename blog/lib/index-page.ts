import type { Metadata } from 'next'
import { listPublishedPosts, type PublishedPostPage } from '../../cms/posts-read'
import { BLOG_INDEX_PAGE_SIZE, blogIndexLinks } from '../../src/surfaces/shared/blog'
import { generateMeta } from './meta'
import { payload } from './payload'
import { canonical, INDEX_DESCRIPTION, INDEX_TITLE } from './site'

/** One page of the blog index (page 1 is the root). */
export async function readIndexPage(page: number): Promise<PublishedPostPage> {
  return listPublishedPosts({ page, limit: BLOG_INDEX_PAGE_SIZE }, await payload())
}

/** Title, description, self-canonical and rel prev/next of index page `page`. */
export function indexPageMeta(page: number, totalPages: number): Metadata {
  const links = blogIndexLinks(page, Math.max(1, totalPages))
  const suffix = page > 1 ? ` (page ${page})` : ''
  return {
    ...generateMeta({
      title: `${INDEX_TITLE}${suffix}`,
      description: page > 1 ? `${INDEX_DESCRIPTION} Page ${page}.` : INDEX_DESCRIPTION,
      path: links.canonical,
      absoluteTitle: true,
    }),
    pagination: {
      previous: links.prev ? canonical(links.prev) : null,
      next: links.next ? canonical(links.next) : null,
    },
  }
}
