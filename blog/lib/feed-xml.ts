/**
 * RSS 2.0 and Atom 1.0 serialization with one escaping rule for every value we did not write
 * ourselves: partner titles, excerpts, authors and tags are text, never markup.
 * (Why not the `feed` package: see docs/decisions.md, "Feeds".)
 */

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

/** Escaped character data or attribute value: safe inside any element or quoted attribute. */
export function xmlEscape(value: string): string {
  return value
    .replace(NOT_XML_CHAR, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

/** Plain text as HTML (for RSS `description`, which readers treat as HTML). */
const textAsHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

const el = (name: string, value: string, attrs = ''): string => `<${name}${attrs}>${xmlEscape(value)}</${name}>`

export function renderRss(channel: FeedChannel, items: readonly FeedItem[]): string {
  const entries = items.map((item) =>
    [
      '    <item>',
      `      ${el('title', item.title)}`,
      `      ${el('link', item.url)}`,
      `      ${el('guid', item.url, ' isPermaLink="true"')}`,
      `      ${el('pubDate', item.published.toUTCString())}`,
      `      ${el('description', textAsHtml(item.summary))}`,
      `      ${el('content:encoded', item.contentHtml)}`,
      `      ${el('author', `${item.author.email} (${item.author.name})`)}`,
      ...item.tags.map((t) => `      ${el('category', t)}`),
      ...(item.image
        ? [`      <enclosure url="${xmlEscape(item.image.url)}" length="${item.image.bytes}" type="${xmlEscape(item.image.mimeType)}"/>`]
        : []),
      '    </item>',
    ].join('\n'),
  )
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
    '  <channel>',
    `    ${el('title', channel.title)}`,
    `    ${el('link', channel.link)}`,
    `    ${el('description', channel.description)}`,
    `    ${el('language', channel.language)}`,
    `    ${el('copyright', channel.copyright)}`,
    `    ${el('generator', channel.generator)}`,
    `    ${el('lastBuildDate', channel.updated.toUTCString())}`,
    `    <atom:link href="${xmlEscape(channel.rssUrl)}" rel="self" type="application/rss+xml"/>`,
    `    <image>${el('url', channel.imageUrl)}${el('title', channel.title)}${el('link', channel.link)}</image>`,
    ...entries,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n')
}

export function renderAtom(channel: FeedChannel, items: readonly FeedItem[]): string {
  const entries = items.map((item) =>
    [
      '  <entry>',
      `    ${el('title', item.title, ' type="text"')}`,
      `    ${el('id', item.url)}`,
      `    <link rel="alternate" href="${xmlEscape(item.url)}"/>`,
      `    ${el('updated', item.updated.toISOString())}`,
      `    ${el('published', item.published.toISOString())}`,
      `    ${el('summary', item.summary, ' type="text"')}`,
      `    ${el('content', item.contentHtml, ' type="html"')}`,
      `    <author>${el('name', item.author.name)}${el('email', item.author.email)}</author>`,
      ...item.tags.map((t) => `    <category term="${xmlEscape(t)}" label="${xmlEscape(t)}"/>`),
      ...(item.image
        ? [`    <link rel="enclosure" href="${xmlEscape(item.image.url)}" type="${xmlEscape(item.image.mimeType)}" length="${item.image.bytes}"/>`]
        : []),
      '  </entry>',
    ].join('\n'),
  )
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${xmlEscape(channel.language)}">`,
    `  ${el('id', channel.link)}`,
    `  ${el('title', channel.title, ' type="text"')}`,
    `  ${el('subtitle', channel.description, ' type="text"')}`,
    `  ${el('updated', channel.updated.toISOString())}`,
    `  <link rel="alternate" href="${xmlEscape(channel.link)}"/>`,
    `  <link rel="self" href="${xmlEscape(channel.atomUrl)}"/>`,
    `  ${el('logo', channel.imageUrl)}`,
    `  ${el('rights', channel.copyright)}`,
    `  ${el('generator', channel.generator)}`,
    ...entries,
    '</feed>',
    '',
  ].join('\n')
}
