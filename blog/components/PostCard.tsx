import Link from 'next/link'
import type { PublishedPostSummary } from '../../cms/posts-read'

export function formatDate(iso: string): string {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 10)
}

export function PostCard({ post }: { post: PublishedPostSummary }) {
  return (
    <article className="card">
      <h2>
        <Link href={`/posts/${post.slug}/`}>{post.title}</Link>
      </h2>
      <p className="meta">
        <time dateTime={post.publishedAt}>{formatDate(post.publishedAt)}</time>
        {post.author ? ` · ${post.author}` : null}
      </p>
      {post.excerpt ? <p>{post.excerpt}</p> : null}
      {post.tags.length > 0 ? (
        <ul className="tags">
          {post.tags.map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
      ) : null}
    </article>
  )
}
