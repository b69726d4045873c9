import type { CollectionConfig } from 'payload'
import { authenticated } from '../access/authenticated'
import { nobody } from '../access/nobody'

/** One row per handled partner webhook delivery; the unique deliveryId gives idempotency. */
export const WebhookDeliveries: CollectionConfig = {
  slug: 'blog_webhook_deliveries',
  labels: { singular: 'Webhook delivery', plural: 'Webhook deliveries' },
  admin: { useAsTitle: 'deliveryId', group: 'Admin', defaultColumns: ['deliveryId', 'event', 'slug', 'receivedAt'] },
  access: { read: authenticated, create: nobody, update: nobody, delete: authenticated },
  fields: [
    { name: 'deliveryId', type: 'text', required: true, unique: true, index: true },
    { name: 'event', type: 'text', required: true },
    { name: 'slug', type: 'text', index: true },
    { name: 'receivedAt', type: 'date', required: true, admin: { date: { pickerAppearance: 'dayAndTime' } } },
    // One line per finding that did not refuse the delivery (e.g. an image that could not be fetched and was dropped).
    { name: 'warnings', type: 'textarea', admin: { readOnly: true } },
  ],
}
