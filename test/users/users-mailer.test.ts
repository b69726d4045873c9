/**
 * The mail adapter (src/providers/mailer.ts) against a real SMTP server on loopback that
 * requires a login: the mail arrives with both parts; a wrong password, a refused recipient and
 * an unreachable server are UPSTREAM_UNAVAILABLE, logged without the mail's body or the password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type OutgoingMail } from '../../src/providers/mailer';
import { AppError } from '../../src/errors';
import { captureLogger } from '../helpers/logs';
import { freePort } from '../helpers/store';
import { startSmtpServer, type SmtpFixture } from '../fixtures/smtp-server';

const LOGIN = { user: 'platform-mailer', password: 'smtp-password-for-tests' };
const SECRET_IN_BODY = 'body-secret-0123456789';
const mail: OutgoingMail = {
  to: 'someone@example.test',
  subject: 'Hello',
  text: `Plain part ${SECRET_IN_BODY}`,
  html: `<p>HTML part ${SECRET_IN_BODY}</p>`,
  purpose: 'adapter-test',
};

let smtp: SmtpFixture;
beforeAll(async () => {
  smtp = await startSmtpServer({ auth: LOGIN });
});
afterAll(async () => smtp?.close());

const smtpConfig = (port: number, password = LOGIN.password) => ({
  host: '127.0.0.1',
  port,
  secure: false,
  user: LOGIN.user,
  password,
  from: 'Platform <no-reply@app.example.test>',
});

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('mailer', () => {
  it('logs in and delivers text and HTML parts', async () => {
    const { logger, logs } = captureLogger();
    await createMailer({ smtp: smtpConfig(smtp.port), logger }).send(mail);
    const received = smtp.mails.at(-1)!;
    expect(received).toMatchObject({ user: LOGIN.user, envelopeFrom: 'no-reply@app.example.test', envelopeTo: ['someone@example.test'] });
    expect(received.headers).toMatchObject({ from: 'Platform <no-reply@app.example.test>', to: 'someone@example.test', subject: 'Hello' });
    expect(received.text).toBe(mail.text);
    expect(received.html).toBe(mail.html);
    expect(logs.lines.filter((l) => l.msg === 'mail sent')).toEqual([expect.objectContaining({ purpose: 'adapter-test', messageId: expect.any(String) })]);
    expect(logs.raw.join('\n')).not.toContain(SECRET_IN_BODY);
  });

  it('answers UPSTREAM_UNAVAILABLE for a wrong password, a refused recipient or no server, logging no body or password', async () => {
    const { logger, logs } = captureLogger({ secretValues: [] });
    const before = smtp.mails.length;
    const wrongPassword = await refusal(createMailer({ smtp: smtpConfig(smtp.port, 'wrong-password-value'), logger }).send(mail));
    expect(wrongPassword.code).toBe('UPSTREAM_UNAVAILABLE');

    smtp.refuseRecipients = true;
    try {
      expect((await refusal(createMailer({ smtp: smtpConfig(smtp.port), logger }).send(mail))).code).toBe('UPSTREAM_UNAVAILABLE');
    } finally {
      smtp.refuseRecipients = false;
    }
    expect((await refusal(createMailer({ smtp: smtpConfig(await freePort()), logger }).send(mail))).code).toBe('UPSTREAM_UNAVAILABLE');

    expect(smtp.mails.length).toBe(before);
    const warnings = logs.lines.filter((l) => l.msg === 'mail not sent: the SMTP server did not accept it');
    expect(warnings).toHaveLength(3);
    expect(warnings.map((w) => w.smtpCode)).toEqual(['EAUTH', 'EENVELOPE', 'ESOCKET']);
    const all = logs.raw.join('\n');
    for (const secret of [SECRET_IN_BODY, 'wrong-password-value', LOGIN.password]) expect(all).not.toContain(secret);
  });

  it('without SMTP settings refuses with SERVICE_UNAVAILABLE and says so in the log', async () => {
    const { logger, logs } = captureLogger();
    const mailer = createMailer({ smtp: undefined, logger });
    expect(() => mailer.assertConfigured('adapter-test')).toThrow(expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }));
    expect((await refusal(mailer.send(mail))).code).toBe('SERVICE_UNAVAILABLE');
    expect(logs.lines.filter((l) => l.msg === 'mail not sent: SMTP_HOST is not set')).toHaveLength(2);
    expect(logs.raw.join('\n')).not.toContain(SECRET_IN_BODY);
  });
});
