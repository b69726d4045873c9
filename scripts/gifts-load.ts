// npm run gifts:load -- <project> <file>
// Adds the gift URLs in <file> (one per line; blank lines and lines starting with # are ignored)
// to <project>'s stash. Idempotent: a URL already stashed (in any project) is skipped, so the same
// file can be loaded again after a partial run.
import { readFile } from 'node:fs/promises';
import pino from 'pino';
import { loadConfig } from '../src/config';
import { createDb } from '../src/db/client';
import { isAppError } from '../src/errors';
import { createGiftService } from '../src/services/gifts';

const [project, file] = process.argv.slice(2);
if (!project || !file) {
  process.stderr.write('usage: npm run gifts:load -- <project> <file>\n');
  process.exit(2);
}

const config = loadConfig();
const logger = pino({ level: config.logLevel === 'debug' ? 'debug' : 'warn' });
let code = 0;
let urls: string[];
try {
  urls = (await readFile(file, 'utf8'))
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
} catch (err) {
  process.stderr.write(`gifts:load: cannot read ${file}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
const db = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
try {
  const gifts = createGiftService({ db, logger, ipCheck: null, ipDailyLimit: config.gifts.ipDailyLimit });
  const { added, skipped } = await gifts.loadStash(project, urls);
  process.stdout.write(`gifts:load: ${added} URL(s) added to "${project}", ${skipped} already stashed or repeated (${urls.length} read)\n`);
} catch (err) {
  const message = isAppError(err) ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
  process.stderr.write(`gifts:load failed, nothing added: ${message}\n`);
  code = 1;
} finally {
  await db.close();
}
process.exit(code);
