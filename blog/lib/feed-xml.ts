/**
 * RSS 2.0 and Atom 1.0, built with xmlbuilder2 (as the sitemaps are), which escapes text and
 * attribute values (all but one thing: `literal`) and drops the characters XML cannot carry. Partner titles, excerpts, authors and
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

/**
 * xmlbuilder2 escapes `<`, `>` and `"`, but leaves an `&` that starts an entity (`&amp;`, `&lt;` …)
 * as it is, so a partner's literal "it&amp;s" would read "it&s": every `&` of a value is escaped
 * here first (then every `&` starts `&amp;`, which it keeps). Every text and attribute goes through `add`.
 */
const literal = (value: string): string => value.replace(/&/g, '&amp;')

/** A document whose text and attributes lose what XML cannot carry (never an error on partner input). */
const document = () => create({ version: '1.0', encoding: 'utf-8', invalidCharReplacement: '' })
type Node = ReturnType<ReturnType<typeof document>['ele']>

/** A child element with literal text (when given) and literal attributes. */
function add(parent: Node, name: string, text?: string, attributes: Record<string, string> = {}): Node {
  const el = parent.ele(name, Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, literal(v)])))
  return text === undefined ? el : el.txt(literal(text))
}

const serialize = (doc: ReturnType<typeof document>): string => `${doc.end({ prettyPrint: true })}\n`

export function renderRss(channel: FeedChannel, items: readonly FeedItem[]): string {
  const doc = document()
  const ch = doc.ele('rss', { version: '2.0', 'xmlns:atom': RSS_NS.atom, 'xmlns:content': RSS_NS.content }).ele('channel')
  add(ch, 'title', channel.title)
  add(ch, 'link', channel.link)
  add(ch, 'description', channel.description)
  add(ch, 'language', channel.language)
  add(ch, 'copyright', channel.copyright)
  add(ch, 'generator', channel.generator)
  add(ch, 'lastBuildDate', channel.updated.toUTCString())
  add(ch, 'atom:link', undefined, { href: channel.rssUrl, rel: 'self', type: 'application/rss+xml' })
  const image = add(ch, 'image')
  add(image, 'url', channel.imageUrl)
  add(image, 'title', channel.title)
  add(image, 'link', channel.link)
  for (const item of items) {
    const it = add(ch, 'item')
    add(it, 'title', item.title)
    add(it, 'link', item.url)
    add(it, 'guid', item.url, { isPermaLink: 'true' })
    add(it, 'pubDate', item.published.toUTCString())
    add(it, 'description', xmlEscape(item.summary))
    add(it, 'content:encoded', item.contentHtml)
    add(it, 'author', `${item.author.email} (${item.author.name})`)
    for (const tag of item.tags) add(it, 'category', tag)
    if (item.image) add(it, 'enclosure', undefined, { url: item.image.url, length: String(item.image.bytes), type: item.image.mimeType })
  }
  return serialize(doc)
}

export function renderAtom(channel: FeedChannel, items: readonly FeedItem[]): string {
  const doc = document()
  const feed = doc.ele('feed', { xmlns: RSS_NS.atom, 'xml:lang': channel.language })
  add(feed, 'id', channel.link)
  add(feed, 'title', channel.title, { type: 'text' })
  add(feed, 'subtitle', channel.description, { type: 'text' })
  add(feed, 'updated', channel.updated.toISOString())
  add(feed, 'link', undefined, { rel: 'alternate', href: channel.link })
  add(feed, 'link', undefined, { rel: 'self', href: channel.atomUrl })
  add(feed, 'logo', channel.imageUrl)
  add(feed, 'rights', channel.copyright)
  add(feed, 'generator', channel.generator)
  for (const item of items) {
    const entry = add(feed, 'entry')
    add(entry, 'title', item.title, { type: 'text' })
    add(entry, 'id', item.url)
    add(entry, 'link', undefined, { rel: 'alternate', href: item.url })
    add(entry, 'updated', item.updated.toISOString())
    add(entry, 'published', item.published.toISOString())
    add(entry, 'summary', item.summary, { type: 'text' })
    add(entry, 'content', item.contentHtml, { type: 'html' })
    const author = add(entry, 'author')
    add(author, 'name', item.author.name)
    add(author, 'email', item.author.email)
    for (const tag of item.tags) add(entry, 'category', undefined, { term: tag, label: tag })
    if (item.image) add(entry, 'link', undefined, { rel: 'enclosure', href: item.image.url, type: item.image.mimeType, length: String(item.image.bytes) })
  }
  return serialize(doc)
}
