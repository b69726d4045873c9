import type { OutgoingMail } from '../../providers/mailer';

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function lifetime(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** The address-confirmation mail: the link (which carries the token), its lifetime and its expiry time. */
export function emailVerificationMail(opts: { to: string; link: string; ttlSeconds: number; expiresAt: Date; purpose: string }): OutgoingMail {
  const expiry = `${lifetime(opts.ttlSeconds)} (at ${opts.expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC)`;
  const text = [
    'Please confirm that this is your email address by opening this link:',
    '',
    opts.link,
    '',
    `The link works once and expires in ${expiry}.`,
    'If you did not ask for this, ignore this mail: the address will not be added to any profile.',
  ].join('\n');
  const link = escapeHtml(opts.link);
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif">',
    '<p>Please confirm that this is your email address:</p>',
    `<p><a href="${link}">Confirm my email address</a></p>`,
    `<p>Or copy this link into your browser:<br>${link}</p>`,
    `<p>The link works once and expires in ${escapeHtml(expiry)}.</p>`,
    '<p>If you did not ask for this, ignore this mail: the address will not be added to any profile.</p>',
    '</body></html>',
  ].join('\n');
  return { to: opts.to, subject: 'Confirm your email address', text, html, purpose: opts.purpose };
}
