import { readFile } from 'node:fs/promises';
import type { AuthClient } from 'google-auth-library';
import { AppError } from '../errors';
import type { Logger } from '../observability/logger';

/**
 * The analytics property's live actives, through the Google Analytics Data API's REST form:
 * `POST {apiUrl}/v1beta/properties/{id}:runRealtimeReport` with `{ metrics: [{ name: 'activeUsers' }] }`
 * and an OAuth 2.0 access token that google-auth-library obtains from a service-account key file
 * or the application default credentials (scope analytics.readonly).
 */
export interface AnalyticsProvider {
  /** Users active in the last 30 minutes, as the realtime report counts them. */
  activeUsers(opts?: { signal?: AbortSignal }): Promise<number>;
}

export interface AnalyticsProviderOptions {
  propertyId: string;
  /** Service-account key file; undefined: application default credentials. */
  keyFile?: string;
  apiUrl: string;
  /** Where the library's OAuth 2.0 token requests go instead of Google's endpoint (fixtures). */
  tokenUrl?: string;
  logger: Logger;
  /** Per report request; default 4 s. */
  timeoutMs?: number;
}

const SCOPE = 'https://www.googleapis.com/auth/analytics.readonly';
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

interface RealtimeReport {
  metricHeaders?: Array<{ name?: string }>;
  rows?: Array<{ metricValues?: Array<{ value?: string }> }>;
}

const unavailable = (message: string, details?: Record<string, unknown>, cause?: unknown) =>
  new AppError('UPSTREAM_UNAVAILABLE', `The analytics service ${message}; try again`, details, { cause });

/** The library hard-codes Google's token endpoint; its transport lets us send those requests elsewhere. */
function redirectTokenRequests(client: AuthClient, tokenUrl: string): void {
  client.transporter.interceptors.request.add({
    resolved: async (request) => {
      if (String(request.url) === GOOGLE_TOKEN_URL) request.url = new URL(tokenUrl);
      return request;
    },
  });
}

/**
 * A key file is read and checked here (a service-account key, nothing else: the library's own
 * file loading is deprecated for accepting any credential type); without one, the application
 * default credentials.
 */
async function credentials(keyFile: string | undefined): Promise<AuthClient> {
  // Loaded on the first report: an API without analytics never holds the library (issue 47).
  const { GoogleAuth, JWT } = await import('google-auth-library');
  if (!keyFile) return new GoogleAuth({ scopes: [SCOPE] }).getClient();
  let key: Record<string, unknown>;
  try {
    key = JSON.parse(await readFile(keyFile, 'utf8')) as Record<string, unknown>;
  } catch {
    // JSON.parse quotes the text it choked on: say nothing of the content.
    throw new Error('ANALYTICS.KEY_FILE cannot be read as JSON');
  }
  const text = (field: string) => (typeof key[field] === 'string' && key[field] !== '' ? (key[field] as string) : null);
  if (key.type !== 'service_account' || !text('client_email') || !text('private_key')) {
    throw new Error('ANALYTICS.KEY_FILE is not a service-account key file (type, client_email, private_key)');
  }
  return new JWT({ email: text('client_email')!, key: text('private_key')!, keyId: text('private_key_id') ?? undefined, scopes: [SCOPE] });
}

export function createAnalyticsProvider(opts: AnalyticsProviderOptions): AnalyticsProvider {
  const endpoint = `${opts.apiUrl}/v1beta/properties/${encodeURIComponent(opts.propertyId)}:runRealtimeReport`;
  const timeoutMs = opts.timeoutMs ?? 4000;
  let client: Promise<AuthClient> | null = null;

  const authClient = (): Promise<AuthClient> => {
    if (!client) {
      client = credentials(opts.keyFile).then((c) => {
        if (opts.tokenUrl) redirectTokenRequests(c, opts.tokenUrl);
        return c;
      });
      // A failed credential lookup is retried on the next call (the key file may appear later).
      client.catch(() => (client = null));
    }
    return client;
  };

  async function accessToken(): Promise<string> {
    try {
      const { token } = await (await authClient()).getAccessToken();
      if (!token) throw new Error('no access token issued');
      return token;
    } catch (err) {
      // The library's message can name the key file's path but never its key; log the kind only.
      opts.logger.warn({ provider: 'analytics', err: { message: (err as Error).message } }, 'analytics credentials gave no access token');
      throw unavailable('refused our credentials', undefined, err);
    }
  }

  return {
    async activeUsers({ signal } = {}) {
      const token = await accessToken();
      const timeout = AbortSignal.timeout(timeoutMs);
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ metrics: [{ name: 'activeUsers' }] }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (err) {
        throw unavailable(timeout.aborted ? `did not answer within ${timeoutMs} ms` : 'could not be reached', undefined, err);
      }
      if (!res.ok) {
        await res.body?.cancel();
        opts.logger.warn({ provider: 'analytics', status: res.status }, 'analytics realtime report refused');
        throw unavailable(`answered HTTP ${res.status}`, { status: res.status });
      }
      const report = (await res.json().catch(() => null)) as RealtimeReport | null;
      if (!report || typeof report !== 'object') throw unavailable('sent a body that is not a realtime report');
      const column = (report.metricHeaders ?? []).findIndex((h) => h.name === 'activeUsers');
      // No rows: nobody is active (the API omits rows instead of reporting 0).
      const value = report.rows?.[0]?.metricValues?.[column === -1 ? 0 : column]?.value ?? '0';
      const users = Number(value);
      if (!Number.isSafeInteger(users) || users < 0) throw unavailable('sent an activeUsers value that is not a count');
      return users;
    },
  };
}
