type Obj = Record<string, unknown>

export interface FieldIssue {
  field: string
  message: string
}

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

const kindOf = (v: unknown): string => (Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v === 'object' ? 'an object' : `a ${typeof v}`)

/**
 * Reads partner fields without coercion: a field that is present with another type than its
 * contract's is recorded as an issue naming it and read as absent, never converted (`"a,b"` is
 * not a list of tags) nor silently dropped. `null` counts as absent, as a partner's "no value".
 */
export function strictFields(clean: (s: string) => string | undefined) {
  const issues: FieldIssue[] = []
  const wrong = (field: string, expected: string, v: unknown): undefined => {
    issues.push({ field, message: `must be ${expected}, not ${kindOf(v)}` })
    return undefined
  }
  const absent = (v: unknown) => v === undefined || v === null
  const string = (v: unknown, field: string): string | undefined => (absent(v) ? undefined : typeof v === 'string' ? clean(v) : wrong(field, 'a string', v))
  /** The raw string, uncleaned (html keeps its whitespace). */
  const rawString = (v: unknown, field: string): string | undefined => (absent(v) ? undefined : typeof v === 'string' ? v : wrong(field, 'a string', v))
  const object = (v: unknown, field: string): Obj | undefined => (absent(v) ? undefined : isObj(v) ? v : wrong(field, 'an object', v))
  /** Each element read by `item` (which records its own issues); an element read as absent is left out. */
  const array = <T>(v: unknown, field: string, item: (el: unknown, field: string) => T | undefined): T[] | undefined => {
    if (absent(v)) return undefined
    if (!Array.isArray(v)) return wrong(field, 'an array', v)
    return v.flatMap((el, i) => {
      const read = item(el, `${field}[${i}]`)
      return read === undefined ? [] : [read]
    })
  }
  /** A string, or an object whose `key` is one (author: "Desk" or { name: "Desk" }). */
  const stringOrNamed = (v: unknown, field: string, key: string): string | undefined =>
    isObj(v) ? string(v[key], `${field}.${key}`) : absent(v) || typeof v === 'string' ? string(v, field) : wrong(field, `a string or an object with a ${key}`, v)
  return { issues, string, rawString, object, array, stringOrNamed }
}
