/**
 * Email verification over real HTTP with a real SMTP server on loopback: the mail arrives, its
 * link verifies the address once (REST and GraphQL), expired, replaced and parallel uses are
 * refused, a verified address cannot be taken by another profile, mails are throttled per
 * profile, and neither the token nor the link shows in a response or a log line.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StartEmailVerificationDocument, VerifyEmailDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';
import { waitFor } from '../helpers/store';
import { startSmtpServer, type ReceivedMail, type SmtpFixture } from '../fixtures/smtp-server';

const APP_URL = 'https://app.example.test';
const LINK = /https:\/\/app\.example\.test\/verify-email\?token=([A-Za-z0-9_-]+)/;

let smtp: SmtpFixture;
let api: TestApi;
/** Every response body this file received, to prove no token or link was ever answered. */
const answered: string[] = [];
const issuedTokens: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startApi({
    env: { APP_URL, SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_SECURE: 'false', SMTP_FROM: 'Platform <no-reply@app.example.test>' },
  });
}, 60_000);
afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

const newWallet = (): string => `0x${randomBytes(32).toString('hex')}`;
const bearer = (wallet: string) => ({ authorization: `Bearer ${api.services.tokens.signAccess(wallet)}` });
const uniqueEmail = (name: string) => `${name}.${randomBytes(4).toString('hex')}@example.test`;

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${api.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  answered.push(text);
  return { status: res.status, headers: res.headers, body: JSON.parse(text) };
}

async function graphql<TData, TVars>(...args: Parameters<typeof gql<TData, TVars>>) {
  const res = await gql(...args);
  answered.push(JSON.stringify(res.body));
  return res;
}

/** Starts verification over REST and returns the mail that arrived and the token in its link. */
async function startAndReceive(wallet: string, email: string): Promise<{ mail: ReceivedMail; token: string }> {
  const before = smtp.mails.length;
  const res = await post('/api/users/me/email', { email }, bearer(wallet));
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await waitFor(() => smtp.mails.length > before, 10_000, 'the verification mail');
  const mail = smtp.mails.at(-1)!;
  const token = LINK.exec(mail.text)?.[1];
  expect(token, mail.text).toBeDefined();
  issuedTokens.push(token!);
  return { mail, token: token! };
}

const profileOf = (wallet: string) => api.db.prisma.profile.findUniqueOrThrow({ where: { walletAddress: wallet } });
const verify = (token: string, headers: Record<string, string> = {}) => post('/api/users/email/verify', { token }, headers);

describe('email verification', () => {
  it('mails a link with its expiry; the link verifies the address once', async () => {
    const wallet = newWallet();
    const address = uniqueEmail('player.one');
    const started = Date.now();
    const res = await post('/api/users/me/email', { email: `  ${address.toUpperCase()} ` }, bearer(wallet));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ email: address, expiresAt: expect.any(String) });
    expect(Date.parse(res.body.expiresAt) - started).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(Date.parse(res.body.expiresAt) - started).toBeLessThanOrEqual(24 * 3600_000 + 1000);

    await waitFor(() => smtp.mails.some((m) => m.envelopeTo.includes(address)), 10_000, 'the verification mail');
    const mail = smtp.mails.find((m) => m.envelopeTo.includes(address))!;
    expect(mail.envelopeFrom).toBe('no-reply@app.example.test');
    expect(mail.headers.subject).toBe('Confirm your email address');
    expect(mail.text).toContain('expires in 24 hours');
    const token = LINK.exec(mail.text)![1];
    issuedTokens.push(token);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(mail.html).toContain(`href="${APP_URL}/verify-email?token=${token}"`);
    expect(mail.html).toContain('expires in 24 hours');

    // Stored as a hash only; the address is not on the profile before it is verified.
    const rows = await api.db.prisma.emailVerificationToken.findMany({ where: { email: address } });
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(await profileOf(wallet)).toMatchObject({ email: null, emailVerifiedAt: null });

    // Opening the API path with GET (a mail scanner) verifies nothing.
    const prefetch = await fetch(`${api.url}/api/users/email/verify?token=${token}`);
    answered.push(await prefetch.text());
    expect(prefetch.status).toBe(404);
    expect((await api.db.prisma.emailVerificationToken.findFirstOrThrow({ where: { email: address } })).consumedAt).toBeNull();

    // No access token needed; a stale one in the page does not get in the way.
    const verified = await verify(token, { authorization: 'Bearer stale.or.garbage' });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ email: address, emailVerifiedAt: expect.any(String) });
    const me = await (await fetch(`${api.url}/api/users/me`, { headers: bearer(wallet) })).json();
    expect(me).toMatchObject({ email: address, emailVerified: true, emailVerifiedAt: verified.body.emailVerifiedAt });

    const again = await verify(token);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('EMAIL_TOKEN_INVALID');
    expect((await profileOf(wallet)).emailVerifiedAt!.toISOString()).toBe(verified.body.emailVerifiedAt);
  });

  it('works over GraphQL with the same codes', async () => {
    const wallet = newWallet();
    const address = uniqueEmail('graphql');
    const before = smtp.mails.length;
    const started = await graphql(api.url, StartEmailVerificationDocument, { email: address }, bearer(wallet));
    expect(started.body.errors).toBeUndefined();
    expect(started.body.data!.startEmailVerification.email).toBe(address);
    await waitFor(() => smtp.mails.length > before, 10_000, 'the verification mail');
    const token = LINK.exec(smtp.mails.at(-1)!.text)![1];
    issuedTokens.push(token);

    const verified = await graphql(api.url, VerifyEmailDocument, { token });
    expect(verified.body.data!.verifyEmail).toEqual({ email: address, emailVerifiedAt: expect.any(String) });
    const again = await graphql(api.url, VerifyEmailDocument, { token });
    expect(again.body.errors![0].extensions!.code).toBe('EMAIL_TOKEN_INVALID');
    const unknown = await graphql(api.url, VerifyEmailDocument, { token: randomBytes(32).toString('base64url') });
    expect(unknown.body.errors![0].extensions!.code).toBe('EMAIL_TOKEN_INVALID');

    const bad = await graphql(api.url, StartEmailVerificationDocument, { email: 'not an address' }, bearer(wallet));
    const badRest = await post('/api/users/me/email', { email: 'not an address' }, bearer(wallet));
    expect(bad.body.errors![0].extensions).toEqual({ code: 'VALIDATION_FAILED', details: badRest.body.error.details });
    expect(badRest.body.error.details.issues).toEqual([{ path: '/email', message: 'must be an email address' }]);
  });

  it('refuses an expired link and writes nothing', async () => {
    const wallet = newWallet();
    const address = uniqueEmail('late');
    const { token } = await startAndReceive(wallet, address);
    await api.db.prisma.emailVerificationToken.updateMany({ where: { email: address }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await verify(token);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('EMAIL_TOKEN_EXPIRED');
    expect(await profileOf(wallet)).toMatchObject({ email: null, emailVerifiedAt: null });
    expect((await api.db.prisma.emailVerificationToken.findFirstOrThrow({ where: { email: address } })).consumedAt).toBeNull();
  });

  it('lets exactly one of many parallel uses of one link succeed', async () => {
    const wallet = newWallet();
    const { token } = await startAndReceive(wallet, uniqueEmail('race'));
    const answers = await Promise.all([
      ...Array.from({ length: 15 }, () => verify(token).then((r) => (r.status === 200 ? 'ok' : r.body.error.code))),
      ...Array.from({ length: 15 }, () =>
        graphql(api.url, VerifyEmailDocument, { token }).then((r) => (r.body.data?.verifyEmail ? 'ok' : r.body.errors![0].extensions!.code)),
      ),
    ]);
    expect(answers.filter((a) => a === 'ok')).toHaveLength(1);
    expect(answers.filter((a) => a !== 'ok')).toEqual(Array(29).fill('EMAIL_TOKEN_INVALID'));
  });

  it('a new start replaces the older link', async () => {
    const wallet = newWallet();
    const first = await startAndReceive(wallet, uniqueEmail('first'));
    const secondAddress = uniqueEmail('second');
    const second = await startAndReceive(wallet, secondAddress);
    expect((await verify(first.token)).body.error.code).toBe('EMAIL_TOKEN_INVALID');
    expect((await verify(second.token)).body).toMatchObject({ email: secondAddress });
    expect((await profileOf(wallet)).email).toBe(secondAddress);
  });

  it('leaves one live link when starts of one profile run in parallel', async () => {
    const wallet = newWallet();
    const before = smtp.mails.length;
    const addresses = [uniqueEmail('par0'), uniqueEmail('par1'), uniqueEmail('par2')];
    const starts = await Promise.all(addresses.map((email) => post('/api/users/me/email', { email }, bearer(wallet))));
    expect(starts.map((s) => s.status)).toEqual([202, 202, 202]);
    await waitFor(() => smtp.mails.length >= before + 3, 10_000, 'three verification mails');
    const tokens = smtp.mails.slice(before).map((m) => LINK.exec(m.text)![1]);
    issuedTokens.push(...tokens);
    const outcomes = [];
    for (const token of tokens) outcomes.push((await verify(token)).status);
    expect(outcomes.filter((s) => s === 200)).toHaveLength(1);
    expect(outcomes.filter((s) => s === 400)).toHaveLength(2);
  });

  it('keeps a verified address to its profile: CONFLICT at start, and at verify when two profiles raced', async () => {
    const [alice, bob, carol] = [newWallet(), newWallet(), newWallet()];
    const shared = uniqueEmail('shared');
    const aliceLink = await startAndReceive(alice, shared);
    const bobLink = await startAndReceive(bob, shared);
    expect((await verify(aliceLink.token)).status).toBe(200);

    const late = await verify(bobLink.token);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('CONFLICT');
    expect(await profileOf(bob)).toMatchObject({ email: null, emailVerifiedAt: null });

    const mailsBefore = smtp.mails.length;
    const taken = await post('/api/users/me/email', { email: shared.toUpperCase() }, bearer(carol));
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('CONFLICT');
    const own = await post('/api/users/me/email', { email: shared }, bearer(alice));
    expect(own.body.error.code).toBe('CONFLICT');
    expect(smtp.mails.length).toBe(mailsBefore);
  });

  it('sends at most 5 mails per profile and hour', async () => {
    const wallet = newWallet();
    const before = smtp.mails.length;
    for (let i = 0; i < 5; i++) await startAndReceive(wallet, uniqueEmail(`throttle${i}`));
    const sixth = await post('/api/users/me/email', { email: uniqueEmail('throttle5') }, bearer(wallet));
    expect(sixth.status).toBe(429);
    expect(sixth.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { scope: 'profile', retryAfterSeconds: expect.any(Number) } });
    expect(sixth.headers.get('retry-after')).toBe(String(sixth.body.error.details.retryAfterSeconds));
    expect(smtp.mails.length).toBe(before + 5);
    // Another profile has its own budget.
    await startAndReceive(newWallet(), uniqueEmail('other'));
  });

  it('answers UPSTREAM_UNAVAILABLE when the mail server refuses, leaving no usable link', async () => {
    const wallet = newWallet();
    const address = uniqueEmail('bounce');
    smtp.refuseRecipients = true;
    try {
      const res = await post('/api/users/me/email', { email: address }, bearer(wallet));
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    } finally {
      smtp.refuseRecipients = false;
    }
    expect(await api.db.prisma.emailVerificationToken.count({ where: { email: address } })).toBe(0);
  });

  it('refuses malformed bodies with VALIDATION_FAILED and unknown tokens with EMAIL_TOKEN_INVALID', async () => {
    for (const body of [{}, { token: '' }, { token: 42 }, { token: 'x', extra: 1 }]) {
      const direct = await post('/api/users/email/verify', body);
      expect(direct.body.error.code, JSON.stringify(body)).toBe('VALIDATION_FAILED');
    }
    expect((await verify('no-such-token')).body.error.code).toBe('EMAIL_TOKEN_INVALID');
  });

  it('never answers or logs a token or link', () => {
    expect(issuedTokens.length).toBeGreaterThanOrEqual(10);
    for (const token of issuedTokens) {
      expect(answered.filter((body) => body.includes(token))).toEqual([]);
      expect(api.logs.raw.filter((line) => line.includes(token))).toEqual([]);
    }
    expect(api.logs.raw.filter((line) => line.includes('verify-email'))).toEqual([]);
    expect(api.logs.lines.filter((l) => l.msg === 'mail sent').length).toBeGreaterThanOrEqual(10);
  });
});

describe('without SMTP settings', () => {
  it('answers SERVICE_UNAVAILABLE and writes nothing', async () => {
    const noMail = await startApi({ db: api.db });
    try {
      const wallet = newWallet();
      const res = await fetch(`${noMail.url}/api/users/me/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${noMail.services.tokens.signAccess(wallet)}` },
        body: JSON.stringify({ email: uniqueEmail('nomail') }),
      });
      expect(res.status).toBe(503);
      expect((await res.json()).error.code).toBe('SERVICE_UNAVAILABLE');
      expect(await noMail.db.prisma.profile.count({ where: { walletAddress: wallet } })).toBe(0);
      expect(noMail.logs.lines.filter((l) => l.msg === 'mail not sent: SMTP_HOST is not set')).toEqual([expect.objectContaining({ purpose: 'email-verification' })]);
    } finally {
      await noMail.close();
    }
  }, 60_000);
});
