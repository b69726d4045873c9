import type { Access } from 'payload'

/** Only the Local API with overrideAccess (the publishing service) may write. */
export const nobody: Access = () => false
