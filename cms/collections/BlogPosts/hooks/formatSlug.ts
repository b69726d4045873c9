import type { FieldHook } from 'payload'
import { slugify } from '../slugify'

/** Fills an empty slug from the title; lowercases and trims a typed one. */
export const formatSlug: FieldHook = ({ value, data }) => {
  if (typeof value === 'string' && value.trim()) return value.trim().toLowerCase()
  const title = typeof data?.title === 'string' ? data.title : ''
  return title ? slugify(title) : value
}
