import nodemailer from 'nodemailer'
import type { EmailAdapter } from 'payload'
import type { SmtpSettings } from '../settings'

/** `Name <address>` or a bare address. */
function parseFrom(from: string): { name: string; address: string } {
  const m = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from)
  return m ? { name: m[1]!.trim() || 'Platform Blog', address: m[2]!.trim() } : { name: 'Platform Blog', address: from.trim() }
}

/**
 * Payload email adapter over nodemailer's SMTP transport (what @payloadcms/email-nodemailer
 * does; that package pins another Payload version). Editors' password resets and
 * verification mails go out through SMTP_HOST.
 */
export function smtpEmailAdapter(smtp: SmtpSettings): EmailAdapter {
  const from = parseFrom(smtp.from)
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  })
  return () => ({
    name: 'smtp',
    defaultFromAddress: from.address,
    defaultFromName: from.name,
    sendEmail: async (message) => transport.sendMail({ ...message, from: message.from ?? { name: from.name, address: from.address } }),
  })
}

/**
 * Without SMTP settings: nothing is sent; one info line per mail names its recipient and
 * subject (never the body, which can carry a reset token). Replaces Payload's console adapter
 * and its start-up warning.
 */
export const unsentEmailAdapter: EmailAdapter = ({ payload }) => ({
  name: 'unsent',
  defaultFromAddress: 'blog@localhost.localdomain',
  defaultFromName: 'Platform Blog',
  sendEmail: async (message) => {
    payload.logger.info({ to: message.to, subject: message.subject }, 'email not sent: set SMTP_HOST to send mail')
    return undefined
  },
})
