import type { Access } from 'payload'

/** Editors see everything; the public sees only published rows. */
export const authenticatedOrPublished: Access = ({ req }) =>
  req.user ? true : { _status: { equals: 'published' } }
