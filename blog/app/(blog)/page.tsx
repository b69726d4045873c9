import type { Metadata } from 'next'
import { PostIndex } from '../../components/PostIndex'
import { indexPageMeta, readIndexPage } from '../../lib/index-page'

export const revalidate = 60

export async function generateMetadata(): Promise<Metadata> {
  return indexPageMeta(1, (await readIndexPage(1)).totalPages)
}

export default async function IndexPage() {
  return <PostIndex result={await readIndexPage(1)} />
}
