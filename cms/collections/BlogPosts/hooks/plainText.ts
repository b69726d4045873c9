import { convertLexicalToPlaintext } from '@payloadcms/richtext-lexical/plaintext'
import type { SerializedEditorState } from '@payloadcms/richtext-lexical/lexical'

/** Visible plain text of a Lexical document (empty string for empty content). */
export function lexicalPlainText(content: unknown): string {
  if (!content || typeof content !== 'object' || !('root' in content)) return ''
  try {
    return convertLexicalToPlaintext({ data: content as SerializedEditorState })
  } catch {
    return ''
  }
}
