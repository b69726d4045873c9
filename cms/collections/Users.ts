import type { CollectionConfig } from 'payload'
import { authenticated } from '../access/authenticated'

export const Users: CollectionConfig = {
  slug: 'users',
  labels: { singular: 'Editor', plural: 'Editors' },
  // Payload's per-user reset interval (minRequestInterval) writes outside the forgot-password transaction, which
  // SQLite refuses while that transaction holds the write lock ("database is locked"): it is off.
  auth: { forgotPassword: { minRequestInterval: 0 } },
  admin: { useAsTitle: 'email', group: 'Admin' },
  access: { read: authenticated, create: authenticated, update: authenticated, delete: authenticated },
  fields: [{ name: 'name', type: 'text', label: 'Display name' }],
}
