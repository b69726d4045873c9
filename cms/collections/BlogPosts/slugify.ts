/** Short, lowercase, readable slug from a title: ASCII words joined by hyphens, at most 6 words. */
const STOP = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'with', 'your', 'you', 'is', 'are'])

export function slugify(title: string, maxWords = 6): string {
  const words = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9\s-]/g, ' ')
    .split(/[\s-]+/)
    .filter(Boolean)
  const meaningful = words.filter((w) => !STOP.has(w))
  return (meaningful.length >= 2 ? meaningful : words).slice(0, maxWords).join('-').slice(0, 60).replace(/-+$/, '')
}
