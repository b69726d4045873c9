import type { CollectionConfig } from 'payload'
import { anyone } from '../access/anyone'
import { authenticated } from '../access/authenticated'
import { assetUrl } from '../media/asset-url'
import { dropDeletedBytes, dropReplacedBytes, storeUploadedBytes } from '../media/media-file-hooks'

/**
 * Post images. The bytes live in the blog database (`media_files`, written by the hooks below in
 * the row's transaction), so every blog process serves every image at /blog/assets/blog/db/<filename>.
 */
export const Media: CollectionConfig = {
  slug: 'media',
  labels: { singular: 'Image', plural: 'Images' },
  access: { read: anyone, create: authenticated, update: authenticated, delete: authenticated },
  admin: { useAsTitle: 'alt' },
  // Files are served by the blog's asset route, not Payload's /api/media/file/ (post bodies and the admin use this URL).
  hooks: {
    afterRead: [({ doc }) => (typeof doc.filename === 'string' ? { ...doc, url: assetUrl(doc.filename) } : doc)],
    beforeChange: [storeUploadedBytes],
    afterChange: [dropReplacedBytes],
    afterDelete: [dropDeletedBytes],
  },
  upload: {
    // Nothing is written under DATA_DIR: a replica or a recreated container has no files of its own.
    disableLocalStorage: true,
    mimeTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif', 'image/svg+xml'],
  },
  fields: [
    { name: 'alt', type: 'text', required: true, label: 'Alternative text' },
    // Where a partner image was fetched from (empty for editor uploads).
    { name: 'sourceUrl', type: 'text', index: true, admin: { readOnly: true, position: 'sidebar' } },
  ],
}
