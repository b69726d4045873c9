import { randomBytes, createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { loadConfig, type Config } from '../src/config'

/** Social provider links used in the footer, CTA and for rel rewriting. */
export interface SocialLinks {
  chat_platform: string
  messaging_platform: string
  social_network: string
}

/** Every setting the blog and CMS read, taken from the one settings schema (src/config). */
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
  /** BLOG_DB_PUSH: Payload pushes schema changes itself (local schema work only). */
  dbPush: boolean
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

const trimSlash = (s: string): string => s.replace(/\/+$/, '')

/**
 * The one settings schema (src/config), without the start-up requirements: the process that
 * started this one (src/main.ts or scripts/blog-serve.ts) checked those, and the blog runs under
 * NODE_ENV=production even on a development machine. Bad values still throw a ConfigError.
 */
function blogConfig(env?: Record<string, string | undefined>): Config {
  return loadConfig({ env, requireDeploymentSettings: false })
}

/** The settings the blog and CMS read, from the shared schema (defaults and checks live there). */
export function readBlogSettings(env?: Record<string, string | undefined>): BlogSettings {
  const config = blogConfig(env)
  const { blog } = config
  return {
    network: config.network,
    isMainnet: config.network === 'mainnet',
    appUrl: trimSlash(blog.appUrl),
    blogUrl: blog.blogUrl,
    revalidationSecret: blog.revalidationSecret,
    revalidateUrl: blog.revalidateUrl,
    dataDir: path.resolve(/*turbopackIgnore: true*/ config.dataDir),
    databaseUrl: blog.databaseUrl,
    dbPush: blog.dbPush,
    port: blog.port,
    social: { chat_platform: blog.social.chatUrl, messaging_platform: blog.social.messagingUrl, social_network: blog.social.networkUrl },
    ci: blog.publishCi,
    media: blog.media,
    smtp: blog.smtp,
  }
}

/**
 * PAYLOAD_SECRET when set. Otherwise (never on mainnet) a random secret generated once
 * and kept in `${DATA_DIR}/.payload-secret` (mode 0600), hashed so the file content is
 * not the secret itself. Never logged.
 */
export function resolvePayloadSecret(env?: Record<string, string | undefined>): string {
  const given = blogConfig(env).blog.payloadSecret
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
