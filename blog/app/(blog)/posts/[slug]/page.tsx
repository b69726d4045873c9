import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { blogPostPath } from '../../../../../src/surfaces/shared/blog'
import { Cta } from '../../../../components/Cta'
import { JsonLd } from '../../../../components/JsonLd'
import { formatDate } from '../../../../components/PostCard'
import { postJsonLd } from '../../../../lib/jsonld'
import { fitsTemplate, generateMeta } from '../../../../lib/meta'
import { getPost } from '../../../../lib/posts'

export const revalidate = 60
export const dynamicParams = true

type Props = { params: Promise<{ slug: string }> }

/** No posts are rendered at build time; each slug renders on first request, then ISR. */
export function generateStaticParams(): { slug: string }[] {
  return []
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params
  const post = await getPost(slug)
  if (!post) return { title: 'Not found', robots: { index: false, follow: false } }
  return generateMeta({
    title: post.title,
    description: post.seoDescription,
    path: blogPostPath(post.slug),
    type: 'article',
    image: post.imageUrl,
    imageInfo: post.image,
    absoluteTitle: !fitsTemplate(post.title),
    publishedTime: post.publishedAt,
    modifiedTime: post.updatedAt,
  })
}

export default async function PostPage({ params }: Props) {
  const { slug } = await params
  const post = await getPost(slug)
  if (!post) notFound()
  return (
    <article className="post">
      <JsonLd data={postJsonLd(post)} />
      <h1>{post.title}</h1>
      <p className="meta">
        <time dateTime={post.publishedAt}>{formatDate(post.publishedAt)}</time>
        {post.author ? ` · ${post.author}` : null}
      </p>
      {post.imageUrl ? (
        <img src={post.imageUrl} alt={post.image?.alt ?? ''} width={post.image?.width ?? 1200} height={post.image?.height ?? 630} />
      ) : null}
      <div className="content" dangerouslySetInnerHTML={{ __html: post.html }} />
      {post.internalLinks.length > 0 ? (
        <nav aria-label="Related pages">
          <h2>Related</h2>
          <ul>
            {post.internalLinks.map((l) => (
              <li key={l.url}>
                <a href={l.url}>{l.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <Cta />
    </article>
  )
}
