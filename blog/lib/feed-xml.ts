/**
 * RSS 2.0 and Atom 1.0, built with xmlbuilder2 (as the sitemaps are), which escapes every text and
 * attribute value and drops the characters XML cannot carry. Partner titles, excerpts, authors and
 * tags are text, never markup: Atom says `type="text"`; RSS `description`, which readers treat
 * as HTML, gets the excerpt as HTML-escaped text (`xmlEscape`, the one place text becomes markup).
 * (Why not the `feed` package: see docs/decisions.md, "Feeds".)
 */
import { create } from 'xmlbuilder2'

export interface FeedChannel {
  title: string
  description: string
  /** Blog root with trailing slash (also the Atom id). */
  link: string
  rssUrl: string
  atomUrl: string
  language: string
  imageUrl: string
  copyright: string
  generator: string
  /** Newest post update, or the render time when there are no posts. */
  updated: Date
}

export interface FeedItem {
  title: string
  url: string
  /** Plain text (the partner's excerpt). */
  summary: string
  /** Rendered, trusted post HTML. */
  contentHtml: string
  updated: Date
  published: Date
  author: { name: string; email: string }
  tags: string[]
  image?: { url: string; mimeType: string; bytes: number }
}

// XML 1.0 forbids most control characters and lone surrogates; a partner's JSON can carry them.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/** Text as markup (HTML or XML): escaped, without the characters XML cannot carry. */
export function xmlEscape(value: string): string {
  return value
    .replace(NOT_XML_CHAR, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

const RSS_NS = { atom: 'http://www.w3.org/2005/Atom', content: 'http://purl.org/rss/1.0/modules/content/' }

/** A document whose text and attributes lose what XML cannot carry (never an error on partner input). */
const document = () => create({ version: '1.0', encoding: 'utf-8', invalidCharReplacement: '' })
const serialize = (doc: ReturnType<typeof document>): string => `${doc.end({ prettyPrint: true })}\n`

export function renderRss(channel: FeedChannel, items: readonly FeedItem[]): string {
  const doc = document()
  const ch = doc.ele('rss', { version: '2.0', 'xmlns:atom': RSS_NS.atom, 'xmlns:content': RSS_NS.content }).ele('channel')
  ch.ele('title').txt(channel.title)
  ch.ele('link').txt(channel.link)
  ch.ele('description').txt(channel.description)
  ch.ele('language').txt(channel.language)
  ch.ele('copyright').txt(channel.copyright)
  ch.ele('generator').txt(channel.generator)
  ch.ele('lastBuildDate').txt(channel.updated.toUTCString())
  ch.ele('atom:link', { href: channel.rssUrl, rel: 'self', type: 'application/rss+xml' })
  const image = ch.ele('image')
  image.ele('url').txt(channel.imageUrl)
  image.ele('title').txt(channel.title)
  image.ele('link').txt(channel.link)
  for (const item of items) {
    const it = ch.ele('item')
    it.ele('title').txt(item.title)
    it.ele('link').txt(item.url)
    it.ele('guid', { isPermaLink: 'true' }).txt(item.url)
    it.ele('pubDate').txt(item.published.toUTCString())
    it.ele('description').txt(xmlEscape(item.summary))
    it.ele('content:encoded').txt(item.contentHtml)
    it.ele('author').txt(`${item.author.email} (${item.author.name})`)
    for (const tag of item.tags) it.ele('category').txt(tag)
    if (item.image) it.ele('enclosure', { url: item.image.url, length: String(item.image.bytes), type: item.image.mimeType })
  }
  return serialize(doc)
}

export function renderAtom(channel: FeedChannel, items: readonly FeedItem[]): string {
  const doc = document()
  const feed = doc.ele('feed', { xmlns: RSS_NS.atom, 'xml:lang': channel.language })
  feed.ele('id').txt(channel.link)
  feed.ele('title', { type: 'text' }).txt(channel.title)
  feed.ele('subtitle', { type: 'text' }).txt(channel.description)
  feed.ele('updated').txt(channel.updated.toISOString())
  feed.ele('link', { rel: 'alternate', href: channel.link })
  feed.ele('link', { rel: 'self', href: channel.atomUrl })
  feed.ele('logo').txt(channel.imageUrl)
  feed.ele('rights').txt(channel.copyright)
  feed.ele('generator').txt(channel.generator)
  for (const item of items) {
    const entry = feed.ele('entry')
    entry.ele('title', { type: 'text' }).txt(item.title)
    entry.ele('id').txt(item.url)
    entry.ele('link', { rel: 'alternate', href: item.url })
    entry.ele('updated').txt(item.updated.toISOString())
    entry.ele('published').txt(item.published.toISOString())
    entry.ele('summary', { type: 'text' }).txt(item.summary)
    entry.ele('content', { type: 'html' }).txt(item.contentHtml)
    const author = entry.ele('author')
    author.ele('name').txt(item.author.name)
    author.ele('email').txt(item.author.email)
    for (const tag of item.tags) entry.ele('category', { term: tag, label: tag })
    if (item.image) entry.ele('link', { rel: 'enclosure', href: item.image.url, type: item.image.mimeType, length: String(item.image.bytes) })
  }
  return serialize(doc)
}
