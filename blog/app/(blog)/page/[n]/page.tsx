import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { cache } from 'react'
import { blogIndexPageNumber } from '../../../../../src/surfaces/shared/blog'
import { PostIndex } from '../../../../components/PostIndex'
import { indexPageMeta, readIndexPage } from '../../../../lib/index-page'

export const revalidate = 60
// Rendered on first request and cached like the root; `/page/1/` redirects in next.config.mjs.
export const dynamicParams = true
export function generateStaticParams(): { n: string }[] {
  return []
}

/** The page, or a 404 for a segment that is no page number or a page past the last. */
const pageOrNotFound = cache(async (segment: string) => {
  const page = blogIndexPageNumber(segment)
  if (page === null) notFound()
  const result = await readIndexPage(page)
  if (page > result.totalPages) notFound()
  return result
})

type Props = { params: Promise<{ n: string }> }

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const result = await pageOrNotFound((await params).n)
  return indexPageMeta(result.page, result.totalPages)
}

export default async function IndexPageN({ params }: Props) {
  return <PostIndex result={await pageOrNotFound((await params).n)} />
}
