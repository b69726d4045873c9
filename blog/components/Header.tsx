import Link from 'next/link'
import { feedUrls, SITE_NAME } from '../lib/site'

export function Header() {
  const { rss } = feedUrls()
  return (
    <header className="header">
      <Link href="/" className="brand">
        {SITE_NAME}
      </Link>
      <a href={rss} className="feed-link">
        RSS
      </a>
    </header>
  )
}
