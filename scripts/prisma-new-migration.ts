// Creates schema/migrations/<timestamp>_<name>/migration.sql from the difference between the
// migration history and schema/schema.prisma: `npm run db:migration:create -- <name>`.
// Needs no database server (the engine replays history on an in-memory PGlite) unless
// DATABASE_URL is set, in which case a throw-away shadow database on that server is used.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPrisma } from './prisma';

const root = fileURLToPath(new URL('..', import.meta.url));
const name = (process.argv[2] ?? '').replace(/[^A-Za-z0-9_]+/g, '_');
if (!name) {
  console.error('usage: npm run db:migration:create -- <name>');
  process.exit(2);
}
const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
const dir = join(root, 'schema', 'migrations', `${stamp}_${name}`);
const file = join(dir, 'migration.sql');
// Written elsewhere first: an empty directory under migrations/ would break the diff.
const tmp = await mkdtemp(join(tmpdir(), 'migration-'));
const out = join(tmp, 'migration.sql');
const code = await runPrisma([
  'migrate', 'diff',
  '--from-migrations', join(root, 'schema', 'migrations'),
  '--to-schema', join(root, 'schema', 'schema.prisma'),
  '--script', '-o', out,
]);
const sql = code === 0 ? await readFile(out, 'utf8').catch(() => '') : '';
await rm(tmp, { recursive: true, force: true });
if (code !== 0 || !sql.trim() || sql.includes('This is an empty migration')) {
  console.error(code !== 0 ? 'migrate diff failed' : 'schema.prisma matches the migrations: nothing to create');
  process.exit(code || 1);
}
await mkdir(dir, { recursive: true });
await writeFile(file, sql);
console.log(`created ${file}`);
