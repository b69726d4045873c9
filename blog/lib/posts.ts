import { cache } from 'react'
import { getPublishedPostBySlug, type PublishedPost } from '../../cms/posts-read'
import { payload } from './payload'

/** One query per request for a post page (metadata and body share it). */
export const getPost = cache(async (slug: string): Promise<PublishedPost | null> => getPublishedPostBySlug(slug, await payload()))
