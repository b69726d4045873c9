// schema/migrations must produce exactly what schema/schema.prisma describes.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runPrisma } from '../../scripts/prisma';
import { postgresUrl } from '../helpers/db';

const root = fileURLToPath(new URL('../..', import.meta.url));
const serverUrl = postgresUrl();

describe(`migrations match schema.prisma (shadow on ${serverUrl ? 'postgres' : 'pglite'})`, () => {
  it('migrate diff --from-migrations --to-schema reports no difference', async () => {
    const env = { ...process.env };
    if (!serverUrl) delete env.DATABASE_URL;
    const code = await runPrisma(
      ['migrate', 'diff', '--from-migrations', 'schema/migrations', '--to-schema', 'schema/schema.prisma', '--exit-code'],
      env,
      { cwd: root, quiet: true },
    );
    expect(code, 'exit 2 = drift: run `npm run db:migration:create -- <name>`').toBe(0);
  }, 180_000);
});
