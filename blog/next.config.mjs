import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { withPayload } from '@payloadcms/next/withPayload'

const dirname = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(dirname, '..')

/** @type {import('next').NextConfig} */
const nextConfig = {
  basePath: '/blog',
  trailingSlash: true,
  // BLOG_DIST_DIR lets tests run a second server from a copy of one build.
  distDir: process.env.BLOG_DIST_DIR || '.next',
  poweredByHeader: false,
  outputFileTracingRoot: root,
  turbopack: { root },
  images: { unoptimized: true },
  // Type checking runs in `npm run blog:typecheck`, not inside the build.
  typescript: { ignoreBuildErrors: true },
  async redirects() {
    // basePath is prepended: this matches /blog/blog/* and sends it to /blog/*.
    return [{ source: '/blog/:path*', destination: '/:path*', permanent: true }]
  },
}

export default withPayload(nextConfig, { devBundleServerPackages: false })
