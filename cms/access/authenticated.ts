import type { Access } from 'payload'

/** Any logged-in editor. */
export const authenticated: Access = ({ req }) => Boolean(req.user)
