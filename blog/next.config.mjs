import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { withPayload } from '@payloadcms/next/withPayload'
import { securityHeaders } from './security-headers.mjs'

const dirname = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(dirname, '..')

/** @type {import('next').NextConfig} */
const nextConfig = {
  basePath: '/blog',
  trailingSlash: true,
  // BLOG_DIST_DIR lets tests run a second server from a copy of one build.
  distDir: process.env.BLOG_DIST_DIR || '.next',
  // BLOG_BUILD_OUTPUT=standalone (the image): a self-contained server and only the files it reads.
  output: process.env.BLOG_BUILD_OUTPUT === 'standalone' ? 'standalone' : undefined,
  poweredByHeader: false,
  outputFileTracingRoot: root,
  turbopack: { root },
  images: { unoptimized: true },
  // Type checking runs in `npm run blog:typecheck`, not inside the build.
  typescript: { ignoreBuildErrors: true },
  // Turbopack's build cache (in distDir/cache) makes a rebuild after a small change about three
  // times cheaper, and a first build about a quarter dearer. BLOG_BUILD_CACHE=off (a setting of
  // src/config, read raw here as BLOG_DIST_DIR is) where every build is a first one: CI (.ci/run) and
  // the image (Dockerfile, which drops the cache anyway).
  experimental: {
    turbopackFileSystemCacheForBuild: process.env.BLOG_BUILD_CACHE !== 'off',
    // A standalone build (the image) keeps revalidated pages in memory: the container's root is
    // read-only, and its disk would die with it anyway. The build's own pages are read from disk.
    isrFlushToDisk: process.env.BLOG_BUILD_OUTPUT !== 'standalone',
  },
  async headers() {
    return securityHeaders()
  },
  async redirects() {
    // basePath is prepended to both sides: /blog/blog/* goes to /blog/* in one hop, keeping
    // the trailing slash for pages and none for files (rss.xml, images).
    return [
      // Page 1 of the index is the blog root (basePath off: the root keeps its trailing slash).
      { source: '/blog/page/1', destination: '/blog/', basePath: false, permanent: true },
      { source: '/blog/blog', destination: '/blog/', basePath: false, permanent: true },
      { source: '/blog/:file(.*\\.[A-Za-z0-9]+)', destination: '/:file', permanent: true },
      { source: '/blog/:path+', destination: '/:path+/', permanent: true },
    ]
  },
}

export default withPayload(nextConfig, { devBundleServerPackages: false })
