import { randomBytes, createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { loadConfig, type Config } from '../src/config'

/** The settings the blog and CMS read: a view of the one configuration, typed by its declarations (src/config/settings.ts). */
export type BlogSettings = ReturnType<typeof readBlogSettings>
/** Social provider links used in the footer, CTA and for rel rewriting. */
export type SocialLinks = BlogSettings['social']
/** Outgoing mail (editor password resets). */
export type SmtpSettings = NonNullable<Config['blog']['smtp']>

const trimSlash = (s: string): string => s.replace(/\/+$/, '')

/**
 * The one settings schema (src/config), without the start-up requirements: the process that
 * started this one (src/main.ts or scripts/blog-serve.ts) checked those. The blog runs under Next's
 * NODE_ENV=production even on a development machine; loadConfig reads the platform's own from
 * PLATFORM_NODE_ENV, which that process hands down. Bad values still throw a ConfigError.
 */
function blogConfig(env?: Record<string, string | undefined>): Config {
  return loadConfig({ env, requireDeploymentSettings: false })
}

/** The settings the blog and CMS read, from the shared schema (defaults and checks live there). */
export function readBlogSettings(env?: Record<string, string | undefined>) {
  const config = blogConfig(env)
  const { blog } = config
  return {
    network: config.network,
    isMainnet: config.network === 'mainnet',
    appUrl: trimSlash(blog.appUrl),
    blogUrl: blog.blogUrl,
    revalidationSecret: blog.revalidationSecret,
    revalidateUrl: blog.revalidateUrl,
    /** The partner webhook's secret: deliveries the API forwards carry it (cms/platform-api.ts). */
    webhookSecret: blog.webhookSecret,
    dataDir: path.resolve(/*turbopackIgnore: true*/ config.dataDir),
    databaseUrl: blog.databaseUrl,
    dbPush: blog.dbPush,
    port: blog.port,
    social: { chat_platform: blog.social.chatUrl, messaging_platform: blog.social.messagingUrl, social_network: blog.social.networkUrl },
    ci: blog.publishCi,
    media: blog.media,
    smtp: blog.smtp,
    /** OpenTelemetry (OTEL_EXPORTER_OTLP_ENDPOINT); undefined: off. */
    tracing: config.tracing,
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
