import type { Metadata } from 'next'
import type React from 'react'
import { Footer } from '../../components/Footer'
import { Header } from '../../components/Header'
import { SITE_NAME, site } from '../../lib/site'
import './blog.css'

export function generateMetadata(): Metadata {
  return {
    metadataBase: new URL(`${site().blogUrl}/`),
    title: { default: SITE_NAME, template: `%s | ${SITE_NAME}` },
  }
}

export default function BlogLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Header />
        <main className="main">{children}</main>
        <Footer />
      </body>
    </html>
  )
}
