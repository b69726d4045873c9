import { PROVIDER_HOSTS, PROVIDER_LINK_REL } from '../../src/surfaces/shared/blog'
import type { SocialLinks } from '../settings'

export function socialHosts(social: SocialLinks): Set<string> {
  const hosts = new Set(PROVIDER_HOSTS)
  for (const url of Object.values(social)) {
    try {
      hosts.add(new URL(url).hostname.replace(/^www\./, ''))
    } catch {
      // ignore malformed configuration
    }
  }
  return hosts
}

function hostOf(href: string): string | undefined {
  try {
    return new URL(href).hostname.replace(/^www\./, '')
  } catch {
    return undefined
  }
}

/**
 * Rewrites anchors in rendered post HTML: links to the chat, messaging and social providers
 * get rel="nofollow noopener noreferrer", other absolute links rel="noopener noreferrer",
 * and a duplicated /blog/blog/ prefix collapses to /blog/.
 */
export function rewriteLinks(html: string, hosts: ReadonlySet<string>): string {
  return html.replace(/<a\b([^>]*)>/gi, (_tag, attrs: string) => {
    const hrefMatch = /\shref\s*=\s*("([^"]*)"|'([^']*)')/i.exec(attrs)
    const href = hrefMatch ? (hrefMatch[2] ?? hrefMatch[3] ?? '') : ''
    let rest = attrs.replace(/\srel\s*=\s*("[^"]*"|'[^']*')/gi, '')
    if (href.includes('/blog/blog/')) rest = rest.replace(href, href.replace(/\/blog\/blog\//g, '/blog/'))
    const host = /^https?:\/\//i.test(href) ? hostOf(href) : undefined
    if (!host) return `<a${rest}>`
    const rel = hosts.has(host) ? PROVIDER_LINK_REL : 'noopener noreferrer'
    return `<a${rest} rel="${rel}">`
  })
}
