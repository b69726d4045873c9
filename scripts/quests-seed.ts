// npm run quests:seed
// Creates the default quest catalogue's campaigns and quests that are missing (idempotent: existing
// rows, operators' edits included, are never changed). A fresh `npm start` does the same on first
// boot when no campaign exists, and adds missing default quests on every start.
import pino from 'pino';
import { loadConfig } from '../src/config';
import { createDb } from '../src/db/client';
import { DEFAULT_CATALOGUE, seedCatalogue } from '../src/services/quests';

const config = loadConfig();
const logger = pino({ level: config.logLevel === 'debug' ? 'debug' : 'warn' });
const db = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
let code = 0;
try {
  const created = await seedCatalogue(db, DEFAULT_CATALOGUE);
  const all = DEFAULT_CATALOGUE.map((c) => c.campaign.slug);
  const lines = [
    ...(created.campaigns.length ? [`created campaign(s) ${created.campaigns.join(', ')}`] : []),
    ...(created.quests.length ? [`created ${created.quests.length} quest(s): ${created.quests.join(', ')}`] : []),
  ];
  process.stdout.write(lines.length ? `quests:seed: ${lines.join('; ')}\n` : `quests:seed: nothing to do, campaign(s) ${all.join(', ')} and their default quests already exist\n`);
} catch (err) {
  process.stderr.write(`quests:seed failed: ${err instanceof Error ? err.message : String(err)}\n`);
  code = 1;
} finally {
  await db.close();
}
process.exit(code);
