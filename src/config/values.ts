import { z } from 'zod';

/**
 * The kinds of value a setting holds. Every setting arrives as a string (or not at all); each
 * builder parses it into its typed value. Messages do not quote the value (the formatter in
 * index.ts adds it, except for secrets) unless they say so with `params.quotesValue`.
 */

export const text = () => z.string();

export function int(opts: { min?: number; max?: number } = {}) {
  let n = z.number().int();
  if (opts.min !== undefined) n = n.min(opts.min, { error: `must be >= ${opts.min}` });
  if (opts.max !== undefined) n = n.max(opts.max, { error: `must be <= ${opts.max}` });
  return z
    .string()
    .regex(/^-?\d+$/, { error: 'expected an integer' })
    .transform(Number)
    .pipe(n);
}

export const port = () => int({ min: 0, max: 65535 });

const TRUE = ['true', '1', 'yes', 'on'];
const BOOL_WORDS = [...TRUE, 'false', '0', 'no', 'off'];

export const bool = () =>
  z
    .string()
    .refine((v) => BOOL_WORDS.includes(v.toLowerCase()), { error: 'expected true or false' })
    .transform((v) => TRUE.includes(v.toLowerCase()));

export const url = () => z.string().refine((v) => URL.canParse(v), { error: 'is not a valid URL' });

/** A Sui object or package id: `0x` and 1–64 hex digits, normalized to the 64-digit lowercase form. */
export const suiObjectId = () =>
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{1,64}$/, { error: 'must be a Sui object id (0x followed by up to 64 hex digits)' })
    .transform((v) => `0x${v.slice(2).toLowerCase().padStart(64, '0')}`);

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

/** Comma-separated, blanks dropped; `item` checks each entry. */
export function list(item?: { check: (v: string) => boolean; message: (v: string) => string }) {
  const items = z.string().transform((v) =>
    v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
  if (!item) return items;
  return items.check(
    z.superRefine((values, ctx) => {
      for (const v of values) if (!item.check(v)) ctx.addIssue({ code: 'custom', message: item.message(v), input: v, params: { quotesValue: true } });
    }),
  );
}

export function isCidr(value: string): boolean {
  const [addr, bits, extra] = value.split('/');
  if (extra !== undefined || addr === undefined) return false;
  const v4 = /^(\d{1,3})(\.\d{1,3}){3}$/.test(addr) && addr.split('.').every((o) => Number(o) <= 255);
  const v6 = !v4 && addr.includes(':') && /^[0-9a-fA-F:.]+$/.test(addr);
  if (!v4 && !v6) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (v4 ? 32 : 128);
}

/** The serialized origin of `value`, or null unless it is an http(s) URL with no credentials, path, query or fragment. */
export function toOrigin(value: string): string | null {
  const parsed = parseUrl(value);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return null;
  if (parsed.username || parsed.password || parsed.search || parsed.hash || parsed.pathname !== '/') return null;
  return parsed.origin;
}

/** localhost (and *.localhost), 127.0.0.0/8, ::1, the unspecified addresses and IPv4-mapped loopback. */
export function isLoopbackUrl(value: string): boolean {
  const host = parseUrl(value)?.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === undefined) return false;
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === '0.0.0.0' ||
    host === '::1' ||
    host === '::' ||
    /^::ffff:(127\.|7f)/.test(host)
  );
}

const parseUrl = (value: string): URL | null => (URL.canParse(value) ? new URL(value) : null);
