import type { CollectionConfig } from 'payload'
import { authenticated } from '../../access/authenticated'
import { authenticatedOrPublished } from '../../access/authenticatedOrPublished'
import { contentFields, seoFields, sidebarFields } from './fields'
import { editorialCheck } from './hooks/editorialCheck'
import { keepPublishedSlug } from './hooks/keepPublishedSlug'
import { revalidateAfterChange, revalidateAfterDelete } from './hooks/revalidate'
import { syncStatus } from './hooks/syncStatus'

export const BlogPosts: CollectionConfig = {
  slug: 'blog_posts',
  labels: { singular: 'Blog post', plural: 'Blog posts' },
  admin: {
    useAsTitle: 'title',
    defaultColumns: ['title', 'slug', 'status', 'publishedAt', 'updatedAt'],
    description: 'Publishing runs the editorial checks; failures are listed in the "Editorial check" field.',
  },
  access: { read: authenticatedOrPublished, create: authenticated, update: authenticated, delete: authenticated },
  versions: { drafts: true, maxPerDoc: 20 },
  defaultSort: '-publishedAt',
  fields: [
    {
      type: 'tabs',
      tabs: [
        { label: 'Content', fields: contentFields },
        { label: 'Editorial contract', fields: seoFields },
      ],
    },
    ...sidebarFields,
  ],
  hooks: {
    beforeChange: [keepPublishedSlug, syncStatus, editorialCheck],
    afterChange: [revalidateAfterChange],
    afterDelete: [revalidateAfterDelete],
  },
}
