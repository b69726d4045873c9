import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { migratedDataDir, testLogger } from '../helpers/db';

describe('the embedded database (PGlite on disk, as `npm start` on defaults opens it)', () => {
  it('runs with 32 MB of shared buffers, not initdb’s 128 MB, and PGlite’s own settings', async () => {
    const dataDir = await migratedDataDir('embedded-');
    const db = await createDb({ dataDir, logger: testLogger });
    try {
      expect(db.kind).toBe('pglite');
      const setting = async (name: string) => (await db.query<Record<string, string>>(`SHOW ${name}`))[0]![name];
      expect(await setting('shared_buffers')).toBe('32MB');
      expect(await setting('search_path')).toBe('public');
      expect(await setting('max_worker_processes')).toBe('0');
    } finally {
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
