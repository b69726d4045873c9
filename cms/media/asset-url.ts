/** Where the blog serves media files (blog/app/(blog)/assets/blog/db/[...path]/route.ts). */
const ASSET_PREFIX = '/blog/assets/blog/db/'

export const assetUrl = (filename: string): string => `${ASSET_PREFIX}${encodeURIComponent(filename)}`
