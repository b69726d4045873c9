import { randomBytes, createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** Social provider links used in the footer, CTA and for rel rewriting. */
export interface SocialLinks {
  chat_platform: string
  messaging_platform: string
  social_network: string
}

/** Every environment setting the blog and CMS read, in one place. */
export interface BlogSettings {
  network: string
  isMainnet: boolean
  appUrl: string
  /** Public blog root without trailing slash, e.g. https://app.example/blog */
  blogUrl: string
  revalidationSecret: string | undefined
  /** Where the publishing service POSTs to refresh ISR; default `${blogUrl}/api/revalidate/`. */
  revalidateUrl: string
  dataDir: string
  databaseUrl: string | undefined
  port: number
  social: SocialLinks
  ci: {
    token: string | undefined
    apiUrl: string
    repo: string
    workflow: string
    ref: string
  }
  /** Partner images fetched into the media collection. */
  media: {
    maxBytes: number
    timeoutMs: number
    /** Loopback/private targets (test fixtures); ignored when NODE_ENV=production. */
    allowPrivateHosts: boolean
  }
  /** Outgoing mail (editor password resets); undefined without SMTP_HOST. */
  smtp: SmtpSettings | undefined
}

export interface SmtpSettings {
  host: string
  port: number
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean
  user: string | undefined
  password: string | undefined
  from: string
}

const positive = (v: string | undefined, fallback: number): number => (Number(v) > 0 ? Math.trunc(Number(v)) : fallback)

function readSmtp(env: NodeJS.ProcessEnv, appUrl: string): SmtpSettings | undefined {
  const host = env.SMTP_HOST?.trim()
  if (!host) return undefined
  const port = positive(env.SMTP_PORT, 587)
  const appHost = new URL(appUrl).hostname
  return {
    host,
    port,
    secure: env.SMTP_SECURE?.trim() ? env.SMTP_SECURE.trim() === 'true' : port === 465,
    user: env.SMTP_USER?.trim() || undefined,
    password: env.SMTP_PASSWORD?.trim() || undefined,
    from: env.SMTP_FROM?.trim() || `Platform Blog <blog@${appHost.includes('.') ? appHost : 'localhost.localdomain'}>`,
  }
}

const trimSlash = (s: string): string => s.replace(/\/+$/, '')

export function readBlogSettings(env: NodeJS.ProcessEnv = process.env): BlogSettings {
  const network = (env.NETWORK ?? 'testnet').trim().toLowerCase()
  const appUrl = trimSlash(env.APP_URL?.trim() || 'http://localhost:3000')
  const blogUrl = trimSlash(env.BLOG_URL?.trim() || `${appUrl}/blog`)
  return {
    network,
    isMainnet: network === 'mainnet',
    appUrl,
    blogUrl,
    revalidationSecret: env.BLOG_REVALIDATION_SECRET?.trim() || undefined,
    revalidateUrl: env.BLOG_REVALIDATE_URL?.trim() || `${blogUrl}/api/revalidate/`,
    dataDir: path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR?.trim() || './.data'),
    databaseUrl: env.BLOG_DATABASE_URL?.trim() || undefined,
    port: Number(env.BLOG_PORT) > 0 ? Number(env.BLOG_PORT) : 3001,
    social: {
      chat_platform: env.BLOG_SOCIAL_CHAT_URL?.trim() || 'https://discord.gg/platform',
      messaging_platform: env.BLOG_SOCIAL_MESSAGING_URL?.trim() || 'https://t.me/platform',
      social_network: env.BLOG_SOCIAL_NETWORK_URL?.trim() || 'https://x.com/platform',
    },
    ci: {
      token: env.BLOG_PUBLISH_CI_TOKEN?.trim() || undefined,
      apiUrl: trimSlash(env.BLOG_PUBLISH_CI_API_URL?.trim() || 'https://api.github.com'),
      repo: env.BLOG_PUBLISH_CI_REPO?.trim() || 'platform/web',
      workflow: env.BLOG_PUBLISH_CI_WORKFLOW?.trim() || 'blog-publish.yml',
      ref: env.BLOG_PUBLISH_CI_REF?.trim() || 'main',
    },
    media: {
      maxBytes: positive(env.BLOG_MEDIA_MAX_BYTES, 5 * 1024 * 1024),
      timeoutMs: positive(env.BLOG_MEDIA_FETCH_TIMEOUT_MS, 5000),
      allowPrivateHosts: env.NODE_ENV !== 'production' && env.BLOG_MEDIA_ALLOW_PRIVATE_HOSTS?.trim() === 'true',
    },
    smtp: readSmtp(env, appUrl),
  }
}

/**
 * PAYLOAD_SECRET when set. Otherwise (never on mainnet) a random secret generated once
 * and kept in `${DATA_DIR}/.payload-secret` (mode 0600), hashed so the file content is
 * not the secret itself. Never logged.
 */
export function resolvePayloadSecret(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.PAYLOAD_SECRET?.trim()
  if (given) return given
  const settings = readBlogSettings(env)
  if (settings.isMainnet) {
    throw new Error('PAYLOAD_SECRET must be set on mainnet')
  }
  const file = path.join(settings.dataDir, '.payload-secret')
  if (!existsSync(file)) {
    mkdirSync(settings.dataDir, { recursive: true })
    try {
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
  }
  const seed = readFileSync(file, 'utf8').trim()
  return createHash('sha256').update(`payload-dev:${seed}`).digest('hex')
}
