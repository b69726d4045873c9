import { SocialLinks } from './SocialLinks'
import { site } from '../lib/site'

export function Cta() {
  return (
    <aside className="cta" aria-label="Join the community">
      <p>
        Play on <a href={`${site().appUrl}/`}>Platform</a> and follow release notes in the community:
      </p>
      <SocialLinks className="social cta-social" />
    </aside>
  )
}
