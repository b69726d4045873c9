/** Query parameters whose values never reach a span (OAuth codes, signed URLs, GraphQL variables). */
export const SENSITIVE_QUERY_PARAMS = ['code', 'state', 'token', 'access_token', 'id_token', 'refresh_token', 'signature', 'sig', 'secret', 'key', 'apiKey', 'api_key', 'password', 'variables', 'extensions'];

/** `?a=1&b=2` → `?a=REDACTED&b=REDACTED`: which parameters were sent, none of their values. */
export function redactedQuery(search: string): string {
  const params = new URLSearchParams(search);
  const names = [...params.keys()];
  return names.length ? `?${names.map((name) => `${encodeURIComponent(name)}=REDACTED`).join('&')}` : '';
}
