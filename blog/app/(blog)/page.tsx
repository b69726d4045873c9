import type { Metadata } from 'next'
import { listPublishedPosts } from '../../../cms/posts-read'
import { Cta } from '../../components/Cta'
import { JsonLd } from '../../components/JsonLd'
import { PostCard } from '../../components/PostCard'
import { indexJsonLd } from '../../lib/jsonld'
import { generateMeta } from '../../lib/meta'
import { payload } from '../../lib/payload'
import { INDEX_DESCRIPTION, INDEX_TITLE } from '../../lib/site'

export const revalidate = 60

export function generateMetadata(): Metadata {
  return generateMeta({ title: INDEX_TITLE, description: INDEX_DESCRIPTION, path: '/', absoluteTitle: true })
}

export default async function IndexPage() {
  const { docs } = await listPublishedPosts({ page: 1, limit: 50 }, await payload())
  return (
    <>
      <JsonLd data={indexJsonLd()} />
      <h1>Platform Blog</h1>
      {docs.length === 0 ? (
        <p className="empty">No posts yet.</p>
      ) : (
        <section aria-label="Posts">
          {docs.map((post) => (
            <PostCard key={post.id} post={post} />
          ))}
        </section>
      )}
      <Cta />
    </>
  )
}
