/**
 * Migrated in-memory PGlite databases, lent to one test database after another in a worker.
 *
 * Opening one from the template costs about 0.9 s of CPU on the 2-core machine (untarring the
 * image into Emscripten's file system, starting PostgreSQL); putting a returned one back to the
 * template's state costs a few milliseconds: every table that holds rows is truncated (not the
 * tables the template itself fills: the migrations' record), every sequence restarts and the
 * session is discarded. An instance whose schema a test changed (its catalog fingerprint differs
 * from the template's), that a test closed, that was left inside a transaction or that fails to
 * reset in time is closed instead of lent again. A test's Db holds a revocable view of the
 * instance: anything that outlives the test fails instead of writing into the next test's data.
 */
import type { PGlite } from '@electric-sql/pglite';

const USER_SCHEMA = (alias: string) => `${alias}.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and ${alias}.nspname not like 'pg\\_temp%' and ${alias}.nspname not like 'pg\\_toast\\_temp%'`;

/** Every schema object a migration or a test's DDL adds, changes or drops, hashed (not the tables' storage: truncation renews it). */
const FINGERPRINT = `
with rel as (
  select c.oid, c.relname, c.relkind, c.relnatts from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${USER_SCHEMA('n')}
), items(item) as (
  select 'n' || n.oid || n.nspname from pg_namespace n where ${USER_SCHEMA('n')}
  union all select 'c' || oid || relname || relkind::text || relnatts from rel
  union all select 'a' || a.attrelid || ':' || a.attnum || a.attname || a.atttypid || a.attnotnull || a.atthasdef || a.attisdropped from pg_attribute a join rel on rel.oid = a.attrelid where a.attnum > 0
  union all select 'k' || k.oid || k.conname || k.convalidated from pg_constraint k join rel on rel.oid = k.conrelid
  union all select 'd' || d.oid from pg_attrdef d join rel on rel.oid = d.adrelid
  union all select 't' || t.oid || t.tgname || t.tgenabled::text from pg_trigger t join rel on rel.oid = t.tgrelid
  union all select 'p' || p.oid || p.proname || md5(p.prosrc) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${USER_SCHEMA('n')}
  union all select 'y' || y.oid || y.typname from pg_type y join pg_namespace n on n.oid = y.typnamespace where ${USER_SCHEMA('n')}
  union all select 'e' || e.extname || e.extversion from pg_extension e
)
select md5(string_agg(item, ';' order by item)) as fingerprint from items`;

const TABLES = `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p') and not c.relispartition and ${USER_SCHEMA('n')} order by 1`;

const SEQUENCES = `select format('%I.%I', schemaname, sequencename) as name, start_value::text as start, last_value::text as last from pg_sequences
  where schemaname not in ('pg_catalog', 'information_schema') order by 1`;

/** What a returned instance must match (fingerprint, rows of the template's filled tables) and how to bring it back. */
interface Pristine {
  fingerprint: string;
  /** One row: `dirty` (the emptied tables that now hold rows) and `seeded` (the filled tables' row counts, in order). */
  survey: string;
  seededCounts: string;
  restartSequences: string;
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

async function capture(db: PGlite): Promise<Pristine> {
  const [{ fingerprint }] = (await db.query<{ fingerprint: string }>(FINGERPRINT)).rows;
  const tables = (await db.query<{ name: string }>(TABLES)).rows.map((r) => r.name);
  const filled = new Map<string, number>();
  for (const name of tables) {
    const [{ n }] = (await db.query<{ n: number }>(`select count(*)::int as n from ${name}`)).rows;
    if (n > 0) filled.set(name, n);
  }
  const emptied = tables.filter((name) => !filled.has(name));
  const dirty = emptied.length ? `array_remove(array[${emptied.map((name) => `case when exists (select 1 from ${name}) then ${quote(name)} end`).join(', ')}], null)` : `array[]::text[]`;
  const seeded = filled.size ? `array[${[...filled.keys()].map((name) => `(select count(*) from ${name})`).join(', ')}]::text` : `'{}'`;
  const sequences = (await db.query<{ name: string; start: string; last: string | null }>(SEQUENCES)).rows;
  const restarts = sequences.map((s) => (s.last === null ? `setval(${quote(s.name)}, ${s.start}, false)` : `setval(${quote(s.name)}, ${s.last}, true)`));
  return {
    fingerprint,
    survey: `select ${dirty} as dirty, ${seeded} as seeded`,
    seededCounts: `{${[...filled.values()].join(',')}}`,
    restartSequences: restarts.length ? `select ${restarts.join(', ')}` : 'select 1',
  };
}

/** Brings a returned instance back to the template's state, or says why it cannot be. */
async function reset(db: PGlite, pristine: Pristine): Promise<string | null> {
  if (db.closed) return 'closed';
  if (db.isInTransaction()) return 'left inside a transaction';
  const [{ fingerprint }] = (await db.query<{ fingerprint: string }>(FINGERPRINT)).rows;
  if (fingerprint !== pristine.fingerprint) return 'schema changed';
  const [{ dirty, seeded }] = (await db.query<{ dirty: string[]; seeded: string }>(pristine.survey)).rows;
  if (seeded !== pristine.seededCounts) return 'template rows changed';
  if (dirty.length) await db.exec(`truncate ${dirty.join(', ')} cascade`);
  await db.query(pristine.restartSequences);
  await db.exec('discard all');
  return null;
}

const RESET_TIMEOUT_MS = 5_000;

export interface LentPglite {
  /** The instance as the test sees it: revoked when given back. */
  pglite: PGlite;
  /** Ends the test's use; the instance is reset and kept for the next test (or closed). */
  giveBack(): Promise<void>;
}

export class PglitePool {
  private readonly idle: PGlite[] = [];
  private pristine: Promise<Pristine> | undefined;
  /** Instances opened, and why returned ones were closed instead of kept. */
  readonly stats = { opened: 0, closed: [] as string[] };

  constructor(
    private readonly open: () => Promise<PGlite>,
    private readonly maxIdle = 2,
  ) {}

  async lend(): Promise<LentPglite> {
    const db = this.idle.pop() ?? (await this.openFresh());
    const { proxy, revoke } = Proxy.revocable(db, {
      // PGlite's methods use private fields: they run on the instance itself, not on the view.
      get: (target, key) => {
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    let given = false;
    return {
      pglite: proxy,
      giveBack: async () => {
        if (given) return;
        given = true;
        revoke();
        await this.takeBack(db);
      },
    };
  }

  private async openFresh(): Promise<PGlite> {
    const db = await this.open();
    this.stats.opened++;
    this.pristine ??= capture(db);
    await this.pristine;
    return db;
  }

  private async takeBack(db: PGlite): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('reset timed out'), RESET_TIMEOUT_MS)));
    const refused = await Promise.race([reset(db, await this.pristine!).catch((e: unknown) => `reset failed: ${String(e)}`), timeout]).finally(() => clearTimeout(timer));
    if (refused === null && this.idle.length < this.maxIdle) return void this.idle.push(db);
    this.stats.closed.push(refused ?? 'enough idle');
    // A timed-out reset may still hold the instance's lock: closing it would wait on that too.
    if (refused !== 'reset timed out' && !db.closed) await db.close();
  }
}
