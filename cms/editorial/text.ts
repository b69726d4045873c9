/** Small text helpers shared by the editorial checks. Pure, no I/O. */

export function normalize(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9\s]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

export function words(text: string): string[] {
  const n = normalize(text)
  return n ? n.split(' ') : []
}

export function wordCount(text: string): number {
  return words(text).length
}

export function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n|\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
}

export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => wordCount(s) >= 4)
}

/** Word shingles of size n, as a set of joined strings. */
export function shingles(text: string, n = 4): Set<string> {
  const w = words(text)
  const out = new Set<string>()
  for (let i = 0; i + n <= w.length; i++) out.add(w.slice(i, i + n).join(' '))
  return out
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0
  let inter = 0
  for (const x of a) if (b.has(x)) inter++
  return inter / (a.size + b.size - inter)
}

/** First `limit` words of the first paragraph: the fingerprint used for repeated-intro detection. */
export function introOf(text: string, limit = 40): string {
  const first = paragraphs(text)[0] ?? ''
  return words(first).slice(0, limit).join(' ')
}

/**
 * Moving-average type/token ratio over windows of `size` words (step size/2). Unlike the
 * plain distinct/total ratio it does not fall as texts get longer: ordinary prose scores
 * about 0.7 at size 100, padded or spun text far lower.
 */
export function movingTypeTokenRatio(w: readonly string[], size = 100): number {
  if (w.length <= size) return w.length === 0 ? 1 : new Set(w).size / w.length
  let total = 0
  let n = 0
  for (let i = 0; i + size <= w.length; i += size / 2) {
    total += new Set(w.slice(i, i + size)).size / size
    n++
  }
  return total / n
}
