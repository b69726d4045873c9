// Driver adapter for the WebAssembly schema engine (used by scripts/prisma-schema-engine.ts).
// Works around two @prisma/adapter-pg snags seen when the engine introspects:
//  - catalog columns of type `name` (oid 19) and `"char"` (oid 18) are refused: we report them as text;
//  - connectToShadowDb() spreads the config and only swaps `database`, which a
//    `connectionString` silently overrides: we pass discrete host/port/user/database.
// It also sends whole scripts in one simple-protocol query (the adapter splits on ';').
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { DriverAdapterError } from '@prisma/driver-adapter-utils';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';

const TEXT_OID = 25;
const CATALOG_TEXT_OIDS = new Set([18, 19]);

type FieldList = { dataTypeID: number }[];
type WithFields = { fields?: FieldList };

function retypeCatalogFields<T>(result: T): T {
  for (const r of Array.isArray(result) ? result : [result]) {
    for (const f of (r as WithFields | undefined)?.fields ?? []) {
      if (CATALOG_TEXT_OIDS.has(f.dataTypeID)) f.dataTypeID = TEXT_OID;
    }
  }
  return result;
}

class CatalogSafeClient extends pg.Client {
  // pg's query() has many overloads; only the promise form is used by the adapter.
  override query(...args: unknown[]): never {
    const out = (super.query as (...a: unknown[]) => unknown)(...args);
    if (out && typeof (out as Promise<unknown>).then === 'function') {
      return (out as Promise<unknown>).then(retypeCatalogFields) as never;
    }
    return out as never;
  }
}

export function discretePoolConfig(url: string): pg.PoolConfig {
  const u = new URL(url);
  const schema = u.searchParams.get('schema');
  return {
    host: decodeURIComponent(u.hostname) || u.searchParams.get('host') || 'localhost',
    port: u.port ? Number(u.port) : 5432,
    user: decodeURIComponent(u.username) || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database: decodeURIComponent(u.pathname.replace(/^\//, '')) || 'postgres',
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    Client: CatalogSafeClient as unknown as typeof pg.Client,
    max: 4,
  };
}

function toAdapterError(e: unknown): never {
  const err = e as pg.DatabaseError;
  if (typeof err?.code === 'string') {
    throw new DriverAdapterError({
      kind: 'postgres',
      code: err.code,
      severity: err.severity ?? 'ERROR',
      message: err.message,
      detail: err.detail,
      column: err.column,
      hint: err.hint,
    });
  }
  throw e;
}

function withWholeScripts(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const pool = (adapter as SqlDriverAdapter & { underlyingDriver(): pg.Pool }).underlyingDriver();
  return new Proxy(adapter, {
    get(target, prop, receiver) {
      if (prop === 'executeScript') {
        return async (script: string) => {
          await pool.query(script).catch(toAdapterError);
        };
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

export function createEngineAdapterFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  const inner = new PrismaPg(discretePoolConfig(url) as ConstructorParameters<typeof PrismaPg>[0]);
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => withWholeScripts(await inner.connect()),
    connectToShadowDb: async () => withWholeScripts(await inner.connectToShadowDb()),
  };
}

function catalogSafePglite(db: PGlite): PGlite {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'query') {
        return async (...args: Parameters<PGlite['query']>) => retypeCatalogFields(await target.query(...args));
      }
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/**
 * When no DATABASE_URL is configured, the engine works against throw-away in-memory PGlite
 * databases (main and shadow), so schema diffs and `--from-migrations` need no server.
 */
export function createPgliteEngineAdapterFactory(): SqlMigrationAwareDriverAdapterFactory {
  const open = async (): Promise<SqlDriverAdapter> => {
    const db = await PGlite.create();
    return new PrismaPGlite(catalogSafePglite(db)).connect();
  };
  return { provider: 'postgres', adapterName: 'pglite-prisma-adapter', connect: open, connectToShadowDb: open };
}
