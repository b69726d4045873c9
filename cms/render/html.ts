import { convertLexicalToHTML } from '@payloadcms/richtext-lexical/html'
import type { SerializedEditorState } from '@payloadcms/richtext-lexical/lexical'
import type { SocialLinks } from '../settings'
import { rewriteLinks, socialHosts } from './links'

/** Rendered, link-safe HTML of a post body (used by the post page and the feeds). */
export function renderContentHtml(content: unknown, social: SocialLinks): string {
  if (!content || typeof content !== 'object' || !('root' in content)) return ''
  const html = convertLexicalToHTML({ data: content as SerializedEditorState, disableContainer: true })
  return demoteH1(rewriteLinks(html, socialHosts(social)))
}

/** The page owns the only H1: headings inside the body start at H2. */
export function demoteH1(html: string): string {
  return html.replace(/<(\/?)h1(\b[^>]*)>/gi, '<$1h2$2>')
}
