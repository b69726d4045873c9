import Link from 'next/link'
import type { PublishedPostPage } from '../../cms/posts-read'
import { blogIndexLinks } from '../../src/surfaces/shared/blog'
import { indexJsonLd } from '../lib/jsonld'
import { Cta } from './Cta'
import { JsonLd } from './JsonLd'
import { PostCard } from './PostCard'

/** The blog index: one page of post cards and the links to its neighbours. */
export function PostIndex({ result }: { result: PublishedPostPage }) {
  const links = blogIndexLinks(result.page, result.totalPages)
  return (
    <>
      <JsonLd data={indexJsonLd(links.canonical)} />
      <h1>{result.page > 1 ? `Platform Blog, page ${result.page}` : 'Platform Blog'}</h1>
      {result.docs.length === 0 ? (
        <p className="empty">No posts yet.</p>
      ) : (
        <section aria-label="Posts">
          {result.docs.map((post) => (
            <PostCard key={post.id} post={post} />
          ))}
        </section>
      )}
      {links.prev || links.next ? (
        <nav className="pagination" aria-label="Pages">
          {links.prev ? (
            <Link href={links.prev} rel="prev">
              Newer posts
            </Link>
          ) : null}
          {links.next ? (
            <Link href={links.next} rel="next">
              Older posts
            </Link>
          ) : null}
        </nav>
      ) : null}
      <Cta />
    </>
  )
}
