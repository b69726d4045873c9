import type { Transporter } from 'nodemailer';
import type { Config } from '../config';
import { AppError } from '../errors';
import type { Logger } from '../observability/logger';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Names the kind of mail in log lines (the body, which may carry a token, is never logged). */
  purpose: string;
}

export interface Mailer {
  /** Without SMTP_HOST: logs that a mail of this purpose was not sent and refuses with SERVICE_UNAVAILABLE. */
  assertConfigured(purpose: string): void;
  /** Hands the mail to the SMTP server; UPSTREAM_UNAVAILABLE when it does not accept it. */
  send(mail: OutgoingMail): Promise<void>;
}

/** How long one SMTP exchange may take: a hanging mail server must not hold the request past its budget. */
const SMTP_TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 } as const;

/**
 * The one outgoing-mail adapter of the backend (the CMS has its own, cms/email/smtp-adapter.ts):
 * nodemailer's SMTP transport over `config.smtp`. A connection per mail: verification mails are
 * rare, and a pool would keep a socket to the mail server open for nothing. nodemailer is loaded
 * with the first mail: most processes never send one (issue 47, idle memory).
 */
export function createMailer(opts: { smtp: Config['smtp']; logger: Logger }): Mailer {
  const { smtp, logger } = opts;
  if (!smtp) {
    const refuse = (purpose: string): never => {
      logger.warn({ purpose }, 'mail not sent: SMTP_HOST is not set');
      throw new AppError('SERVICE_UNAVAILABLE', 'This server sends no mail (SMTP is not configured)');
    };
    return { assertConfigured: refuse, send: async (mail) => refuse(mail.purpose) };
  }
  let transport: Promise<Transporter> | undefined;
  const transportOf = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.secure,
        ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
        ...SMTP_TIMEOUTS,
      }),
    ));
  return {
    assertConfigured: () => undefined,
    async send(mail) {
      try {
        const info = await (await transportOf()).sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
        logger.info({ purpose: mail.purpose, messageId: info.messageId }, 'mail sent');
      } catch (err) {
        // Only the failure's kind: nodemailer's error text can quote the SMTP conversation.
        const code = (err as { code?: unknown }).code;
        logger.warn({ purpose: mail.purpose, smtpCode: typeof code === 'string' ? code : undefined }, 'mail not sent: the SMTP server did not accept it');
        throw new AppError('UPSTREAM_UNAVAILABLE', 'The mail server did not accept the message; try again later');
      }
    },
  };
}
