/**
 * Characters PostgreSQL cannot store in text or jsonb: NUL, and UTF-16 surrogates that are
 * not part of a pair (they have no UTF-8 encoding). Checked once at every input boundary
 * (REST bodies, query strings and params; GraphQL literals and variables on both transports),
 * so such a string is a client error and never reaches the database.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this refuses
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

export const UNSTORABLE_TEXT_MESSAGE = 'Text must not contain NUL characters or unpaired UTF-16 surrogates';

/**
 * The path (e.g. `variables.input.name`, `items[2]`) of the first string or object key in
 * `value` that PostgreSQL cannot store, or null. Iterative, so deeply nested JSON cannot
 * exhaust the stack.
 */
export function findUnstorableText(value: unknown, root = ''): string | null {
  const pending: Array<[unknown, string]> = [[value, root]];
  while (pending.length) {
    const [current, path] = pending.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return path || '(value)';
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push([current[i], `${path}[${i}]`]);
    } else if (current !== null && typeof current === 'object') {
      for (const [key, inner] of Object.entries(current)) {
        const innerPath = path ? `${path}.${key}` : key;
        if (!isStorableText(key)) return innerPath.replace(new RegExp(UNSTORABLE.source, 'g'), '\uFFFD');
        pending.push([inner, innerPath]);
      }
    }
  }
  return null;
}
