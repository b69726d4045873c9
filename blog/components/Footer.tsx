import { SocialLinks } from './SocialLinks'
import { site } from '../lib/site'

export function Footer() {
  const { appUrl } = site()
  return (
    <footer className="footer">
      <nav aria-label="Platform">
        <a href={`${appUrl}/`}>App</a> · <a href={`${appUrl}/docs/`}>Docs</a>
      </nav>
      <SocialLinks />
    </footer>
  )
}
