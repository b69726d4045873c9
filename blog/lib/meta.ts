import type { Metadata } from 'next'
import { BLOG_TITLE_MAX } from '../../src/surfaces/shared/blog'
import { isIndexable } from '../../src/surfaces/shared/site'
import { absoluteBlogAsset, canonical, feedUrls, INDEX_DESCRIPTION, OG_IMAGE, site, SITE_NAME } from './site'

/** One metadata builder for every page: canonical, feeds, OG/twitter image, robots by NETWORK. */
export function generateMeta(args: {
  title: string
  description: string
  path: string
  type?: 'website' | 'article'
  image?: string | null
  /** Pixel size and alt text of `image` when known (uploaded images); else the default OG image's. */
  imageInfo?: { width: number | null; height: number | null; alt: string } | null
  absoluteTitle?: boolean
  publishedTime?: string
  modifiedTime?: string
}): Metadata {
  const s = site()
  const url = canonical(args.path)
  const image = args.image ? absoluteBlogAsset(args.image) : `${s.blogUrl}${OG_IMAGE.path}`
  const info = args.image ? args.imageInfo : undefined
  const images = [
    info
      ? { url: image, ...(info.width && info.height ? { width: info.width, height: info.height } : {}), alt: info.alt }
      : { url: image, width: OG_IMAGE.width, height: OG_IMAGE.height, alt: OG_IMAGE.alt },
  ]
  const { rss, atom } = feedUrls()
  return {
    title: args.absoluteTitle ? { absolute: args.title } : args.title,
    description: args.description || INDEX_DESCRIPTION,
    alternates: {
      canonical: url,
      types: { 'application/rss+xml': rss, 'application/atom+xml': atom },
    },
    robots: isIndexable(s) ? { index: true, follow: true } : { index: false, follow: false },
    openGraph: {
      type: args.type ?? 'website',
      url,
      siteName: SITE_NAME,
      title: args.title,
      description: args.description,
      images,
      ...(args.publishedTime ? { publishedTime: args.publishedTime, modifiedTime: args.modifiedTime } : {}),
    },
    twitter: { card: 'summary_large_image', title: args.title, description: args.description, images: [image] },
  }
}

/** Title plus the layout template (" | Platform Blog") if that stays within the blog title limit. */
export function fitsTemplate(title: string): boolean {
  return `${title} | ${SITE_NAME}`.length <= BLOG_TITLE_MAX
}
