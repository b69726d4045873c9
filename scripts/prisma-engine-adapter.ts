// Driver adapters for the WebAssembly schema engine (used by scripts/prisma-schema-engine.ts).
// Works around @prisma/adapter-pg snags seen when the engine introspects:
//  - catalog columns of type `"char"` (oid 18) are refused: we pass them as text on the wire
//    and report them to the engine as Character, which its describer expects;
//  - connectToShadowDb() spreads the config and only swaps `database`, which a
//    `connectionString` silently overrides: we pass discrete host/port/user/database.
// It also sends whole scripts in one simple-protocol query (the adapter splits on ';').
import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQuery, SqlResultSet } from '@prisma/driver-adapter-utils';
import { ColumnTypeEnum, DriverAdapterError } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';

const TEXT_OID = 25;
const CHAR_OID = 18;
/** Column indexes that were `"char"`, carried on the rows array (the adapter passes it through). */
const CHAR_COLUMNS = Symbol('charColumns');

type FieldList = { dataTypeID: number }[];
type WithFields = { fields?: FieldList; rows?: unknown[] };

function retypeCatalogFields<T>(result: T): T {
  for (const r of Array.isArray(result) ? result : [result]) {
    const res = r as WithFields | undefined;
    const charCols: number[] = [];
    (res?.fields ?? []).forEach((f, i) => {
      if (f.dataTypeID === CHAR_OID) {
        f.dataTypeID = TEXT_OID;
        charCols.push(i);
      }
    });
    if (charCols.length && res?.rows) Object.defineProperty(res.rows, CHAR_COLUMNS, { value: charCols });
  }
  return result;
}

function restoreCharColumns(rs: SqlResultSet): SqlResultSet {
  const cols = (rs.rows as unknown as { [CHAR_COLUMNS]?: number[] })[CHAR_COLUMNS];
  for (const i of cols ?? []) rs.columnTypes[i] = ColumnTypeEnum.Character;
  return rs;
}

class CatalogSafeClient extends pg.Client {
  // pg's query() has many overloads: promise form (pool clients) and callback form (Pool#query).
  override query(...args: unknown[]): never {
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const cb = args[last] as (err: unknown, res: unknown) => void;
      args[last] = (err: unknown, res: unknown) => cb(err, err ? res : retypeCatalogFields(res));
    }
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
      if (prop === 'queryRaw') {
        return async (q: SqlQuery) => restoreCharColumns(await target.queryRaw(q));
      }
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

function withDispose(adapter: SqlDriverAdapter, after: () => Promise<void>): SqlDriverAdapter {
  return new Proxy(adapter, {
    get(target, prop, receiver) {
      if (prop === 'dispose') {
        return async () => {
          await target.dispose();
          await after();
        };
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

async function adminQuery(config: pg.PoolConfig, sql: string): Promise<void> {
  const client = new pg.Client({ ...config, Client: undefined } as pg.ClientConfig);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

type PgFactoryArg = ConstructorParameters<typeof PrismaPg>[0];

export function createEngineAdapterFactory(url: string, shadowUrl?: string): SqlMigrationAwareDriverAdapterFactory {
  const config = discretePoolConfig(url);
  const inner = new PrismaPg(config as PgFactoryArg);
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => withWholeScripts(await inner.connect()),
    async connectToShadowDb() {
      if (shadowUrl) return withWholeScripts(await new PrismaPg(discretePoolConfig(shadowUrl) as PgFactoryArg).connect());
      // Our own throw-away shadow database: adapter-pg's drops it while its pool still holds a
      // connection, which fails and leaks the database.
      const database = `prisma_migrate_shadow_db_${randomUUID()}`;
      await adminQuery(config, `CREATE DATABASE "${database}"`);
      const adapter = await new PrismaPg({ ...config, database } as PgFactoryArg).connect();
      return withDispose(withWholeScripts(adapter), () => adminQuery(config, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    },
  };
}

/**
 * When no DATABASE_URL is configured, the engine works against throw-away in-memory PGlite
 * databases (main and shadow), so schema diffs and `--from-migrations` need no server.
 */
export function createPgliteEngineAdapterFactory(): SqlMigrationAwareDriverAdapterFactory {
  const open = async (): Promise<SqlDriverAdapter> => {
    const db = await PGlite.create();
    return new PrismaPGlite(db).connect();
  };
  return { provider: 'postgres', adapterName: 'pglite-prisma-adapter', connect: open, connectToShadowDb: open };
}
