/**
 * `pgbouncer=true` in DATABASE_URL (Prisma's own spelling) marks a PgBouncer in transaction mode: the
 * pool then sends no startup parameters (PgBouncer refuses them) and cancels no statement in the
 * server (its backend ids are PgBouncer's). The parameter is ours: it is removed before connecting.
 */
export function isPgBouncerUrl(url: string): boolean {
  return URL.canParse(url) && new URL(url).searchParams.get('pgbouncer') === 'true';
}

export function withoutPgBouncerFlag(url: string): string {
  if (!URL.canParse(url)) return url;
  const u = new URL(url);
  u.searchParams.delete('pgbouncer');
  return u.toString();
}
