import { UNREACHABLE_CODES } from '../db/errors';
import { StartupProblem } from './startup-problem';

/** PostgreSQL's own refusals at connection time. */
const REFUSED: Record<string, string> = {
  '28P01': 'PostgreSQL refused the user name or password: correct them in the URL',
  '28000': 'PostgreSQL refused this user or client (role missing or pg_hba.conf): correct the user in the URL or allow it',
  '3D000': 'the database does not exist: create it (createdb) or correct its name in the URL',
};

/** The URL with its password replaced, for messages. */
export function redactUrl(url: string): string {
  if (!URL.canParse(url)) return '(unparsable URL)';
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/** The codes along an error's cause chain and inside an AggregateError (both families of a refused connect). */
function codesOf(err: unknown, seen = new Set<unknown>()): string[] {
  if (!err || typeof err !== 'object' || seen.has(err)) return [];
  seen.add(err);
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof e.code === 'string' ? [e.code] : [];
  const nested = [e.cause, ...(Array.isArray(e.errors) ? e.errors : [])].flatMap((c) => codesOf(c, seen));
  return [...own, ...nested];
}

/**
 * A PostgreSQL start-up failure that is about reaching the server, as a StartupProblem naming the
 * setting, the address (password redacted) and the usual fix; any other failure is returned as is.
 */
export function describeDatabaseFailure(err: unknown, setting: string, url: string, embedded = 'unset DATABASE_URL to use the embedded database (PGlite in DATA_DIR)'): unknown {
  const codes = codesOf(err);
  const refused = codes.map((c) => REFUSED[c]).find(Boolean);
  const unreachable = codes.find((c) => UNREACHABLE_CODES.has(c));
  if (!refused && !unreachable) return err;
  const u = URL.canParse(url) ? new URL(url) : null;
  const address = u ? `${u.hostname}:${u.port || '5432'}` : 'its address';
  const reason = refused ?? `nothing answers at ${address} (${unreachable})`;
  return new StartupProblem(
    [
      `${setting} (${redactUrl(url)}): cannot open PostgreSQL: ${reason}.`,
      refused
        ? `Fix ${setting}, or ${embedded}.`
        : `Start PostgreSQL at ${address}, correct ${setting}, or ${embedded}.`,
    ].join('\n'),
  );
}
