import { PROVIDER_LINK_REL } from '../../src/surfaces/shared/blog'
import { site } from '../lib/site'

const LABELS = { chat_platform: 'Discord', messaging_platform: 'Telegram', social_network: 'X' } as const

/** Official social links; always rel="nofollow noopener noreferrer". */
export function SocialLinks({ className }: { className?: string }) {
  const social = site().social
  return (
    <ul className={className ?? 'social'}>
      {(Object.keys(LABELS) as (keyof typeof LABELS)[]).map((key) => (
        <li key={key}>
          <a href={social[key]} rel={PROVIDER_LINK_REL} target="_blank" data-provider={key}>
            {LABELS[key]}
          </a>
        </li>
      ))}
    </ul>
  )
}
