import { GraphQLError, Lexer, Source, TokenKind, type ParseOptions } from 'graphql';
import { tooComplex } from './limits';

/**
 * Caps applied before parsing, so the work graphql-js's own validation rules can be made to
 * do (some are quadratic, e.g. OverlappingFieldsCanBeMerged) stays bounded: documents over
 * 64 Ki characters, 2000 lexical tokens or 32 nested brackets are refused unparsed. Real
 * operations of this schema use a few hundred tokens and nest below 15.
 */
export const DOCUMENT_CAPS = { maxChars: 64 * 1024, maxTokens: 2000, maxNesting: 32 } as const;

/** graphql-js parse options; the token cap again, in case a document reaches parse unchecked. */
export const PARSE_OPTIONS: ParseOptions = { maxTokens: DOCUMENT_CAPS.maxTokens, noLocation: false };

const OPENING = new Set<TokenKind>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<TokenKind>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * One linear lexing pass over the source: refuses it (QUERY_TOO_COMPLEX) when over a cap.
 * Syntax errors are left for the parser to report.
 */
export function checkDocumentSource(source: string, caps = DOCUMENT_CAPS): GraphQLError | null {
  if (source.length > caps.maxChars) return tooComplex(`Query document is longer than ${caps.maxChars} characters`);
  const lexer = new Lexer(new Source(source));
  let tokens = 0;
  let nesting = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (++tokens > caps.maxTokens) return tooComplex(`Query document has more than ${caps.maxTokens} tokens`);
      if (OPENING.has(token.kind) && ++nesting > caps.maxNesting) return tooComplex(`Query document nests deeper than ${caps.maxNesting} levels`);
      if (CLOSING.has(token.kind)) nesting--;
    }
  } catch (err) {
    if (err instanceof GraphQLError) return null;
    throw err;
  }
  return null;
}
