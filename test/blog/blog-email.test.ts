/**
 * Editors can reset their password: a blog server configured with SMTP_* sends Payload's
 * forgot-password mail through the nodemailer adapter to a real SMTP server (smtp-server on
 * loopback, with authentication), and the mail carries a working reset token.
 */
import path from 'node:path'
import type { Payload } from 'payload'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from '../helpers/store'
import { MAIN_DIST } from './blog-global-setup'
import { mainnetServerEnv, openPayload } from './blog-helpers'
import { freePort, ROOT, startNext, type StartedServer } from './blog-server'

interface ReceivedMail {
  from: string | undefined
  to: string[]
  auth: string | undefined
  raw: string
}

const EDITOR = { email: 'reset-editor@example.test', password: 'first-password-123', name: 'Reset Editor' }
let smtp: SMTPServer
let smtpPort: number
let server: StartedServer
let payload: Payload
const mails: ReceivedMail[] = []

beforeAll(async () => {
  payload = await openPayload('mainnet')
  await payload.create({ collection: 'users', data: EDITOR })

  smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true, // loopback test server without TLS
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, cb) {
      if (auth.username === 'blog-mailer' && auth.password === 'smtp-pass') cb(null, { user: auth.username })
      else cb(new Error('Invalid username or password'))
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          auth: typeof session.user === 'string' ? session.user : undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        cb()
      })
    },
  })
  smtpPort = await freePort()
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve))

  const port = await freePort()
  const blogUrl = `http://127.0.0.1:${port}/blog`
  server = await startNext(
    port,
    {
      ...mainnetServerEnv(),
      BLOG_URL: blogUrl,
      BLOG_DIST_DIR: MAIN_DIST,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtpPort),
      SMTP_SECURE: 'false',
      SMTP_USER: 'blog-mailer',
      SMTP_PASSWORD: 'smtp-pass',
      SMTP_FROM: 'Platform Blog <no-reply@app.example.test>',
    },
    path.join(ROOT, 'test-artifacts', 'blog-server-email.log'),
  )
})

afterAll(async () => {
  await server?.stop()
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()))
  await payload?.destroy()
})

/** Header lines and the quoted-printable-decoded text of a raw RFC 5322 message (enough for one HTML part). */
function readMail(raw: string): { headers: Record<string, string>; body: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/)
  const headers: Record<string, string> = {}
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':')
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim()
  }
  const body = rest.join('\n\n').replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  return { headers, body }
}

describe('editor password reset mail', () => {
  it('forgot-password sends a mail over SMTP with a reset token that sets a new password', async () => {
    const res = await fetch(`${server.url}/blog/api/users/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EDITOR.email }),
    })
    expect(res.status, await res.clone().text()).toBe(200)
    await waitFor(() => mails.length > 0, 20_000, 'the reset mail at the SMTP server')

    const mail = mails[0]!
    expect(mail).toMatchObject({ from: 'no-reply@app.example.test', to: [EDITOR.email], auth: 'blog-mailer' })
    const { headers, body } = readMail(mail.raw)
    expect(headers.from).toBe('Platform Blog <no-reply@app.example.test>')
    expect(headers.to).toBe(EDITOR.email)
    expect(headers.subject).toMatch(/reset/i)
    const token = /reset\/([A-Za-z0-9]+)/.exec(body)?.[1]
    expect(token, body).toBeTruthy()

    const reset = await fetch(`${server.url}/blog/api/users/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'second-password-456' }),
    })
    expect(reset.status, await reset.clone().text()).toBe(200)
    const login = await fetch(`${server.url}/blog/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EDITOR.email, password: 'second-password-456' }),
    })
    expect(login.status).toBe(200)
  })

  it("the admin shows the signed-in editor's avatar without calling an outside host (no gravatar)", async () => {
    const login = await fetch(`${server.url}/blog/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EDITOR.email, password: 'second-password-456' }),
    })
    expect(login.status).toBe(200)
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!
    expect(cookie).toMatch(/^payload-token=/)
    const admin = await fetch(`${server.url}/blog/admin/`, { headers: { cookie } })
    expect(admin.status).toBe(200)
    expect(admin.url).not.toMatch(/\/login/)
    const html = await admin.text()
    expect(html).toContain(EDITOR.email.split('@')[0]) // signed in: the account menu is rendered
    expect(html).not.toMatch(/gravatar/i)
  })
})
