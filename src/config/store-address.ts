/**
 * SHARED_STORE_URL forms (multi-host addresses are not WHATWG URLs, so they are parsed here):
 * - `redis://[user:password@]host:port/db` and `rediss://…`: one Redis server.
 * - `redis-sentinel://[user:password@]host1:26379,host2:26379/<master name>[?db=0&sentinelPassword=…&tls=1]`:
 *   the master that Sentinel names; the password is the Redis servers' one.
 * - `redis-cluster://[user:password@]host1:7000,host2:7001[?tls=1]`: Redis Cluster seed nodes (no db).
 */
export interface HostPort {
  host: string;
  port: number;
}

interface Credentials {
  username?: string;
  password?: string;
  tls: boolean;
}

export type StoreAddress =
  | { kind: 'single'; url: string }
  | ({ kind: 'sentinel'; sentinels: HostPort[]; name: string; db: number; sentinelPassword?: string } & Credentials)
  | ({ kind: 'cluster'; nodes: HostPort[] } & Credentials);

const MULTI_HOST = /^(redis-sentinel|redis-cluster):\/\/(?:([^@/]*)@)?([^/?#]+)(\/[^?#]*)?(?:\?([^#]*))?$/;
const DEFAULT_PORT = { 'redis-sentinel': 26379, 'redis-cluster': 6379 } as const;

/** The parsed address; throws an Error (never quoting credentials) when it is not one of the forms above. */
export function parseStoreAddress(value: string): StoreAddress {
  const m = MULTI_HOST.exec(value);
  if (!m) {
    if (!URL.canParse(value)) throw new Error('is not a valid URL');
    const protocol = new URL(value).protocol;
    if (protocol !== 'redis:' && protocol !== 'rediss:') {
      throw new Error('must start with redis://, rediss://, redis-sentinel:// or redis-cluster://');
    }
    return { kind: 'single', url: value };
  }
  const scheme = m[1] as keyof typeof DEFAULT_PORT;
  const [username, password] = splitUserInfo(m[2]);
  const hosts = m[3].split(',').map((h) => parseHostPort(h, DEFAULT_PORT[scheme]));
  const query = new URLSearchParams(m[5] ?? '');
  const tls = ['1', 'true'].includes(query.get('tls') ?? '');
  const path = (m[4] ?? '').replace(/^\/+|\/+$/g, '');
  const credentials = { ...(username ? { username } : {}), ...(password ? { password } : {}), tls };
  if (scheme === 'redis-cluster') {
    if (path) throw new Error('redis-cluster:// takes no path (Redis Cluster has only database 0)');
    return { kind: 'cluster', nodes: hosts, ...credentials };
  }
  if (!path) throw new Error('redis-sentinel:// needs the master name as its path (redis-sentinel://host:26379/mymaster)');
  const db = Number(query.get('db') ?? '0');
  if (!Number.isInteger(db) || db < 0) throw new Error('redis-sentinel:// db must be a whole number');
  const sentinelPassword = query.get('sentinelPassword') ?? undefined;
  return { kind: 'sentinel', sentinels: hosts, name: decodeURIComponent(path), db, ...(sentinelPassword ? { sentinelPassword } : {}), ...credentials };
}

function splitUserInfo(info: string | undefined): [string | undefined, string | undefined] {
  if (!info) return [undefined, undefined];
  const colon = info.indexOf(':');
  const decode = (s: string) => (s ? decodeURIComponent(s) : undefined);
  return colon < 0 ? [decode(info), undefined] : [decode(info.slice(0, colon)), decode(info.slice(colon + 1))];
}

function parseHostPort(text: string, defaultPort: number): HostPort {
  if (!URL.canParse(`redis://${text}`)) throw new Error('has an invalid host');
  const u = new URL(`redis://${text}`);
  if (!u.hostname || u.username || u.pathname) throw new Error('has an invalid host');
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port ? Number(u.port) : defaultPort };
}
