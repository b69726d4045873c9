// npm run quests:seed
// Creates the default quest catalogue's campaigns that are missing (idempotent: existing campaign
// rows are never changed). A fresh `npm start` does the same on first boot when no campaign exists.
import pino from 'pino';
import { loadConfig } from '../src/config';
import { createDb } from '../src/db/client';
import { DEFAULT_CATALOGUE } from '../src/services/quests/catalogue';
import { seedCampaigns } from '../src/services/quests/seed';

const config = loadConfig();
const logger = pino({ level: config.logLevel === 'debug' ? 'debug' : 'warn' });
const db = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
let code = 0;
try {
  const created = await seedCampaigns(db, DEFAULT_CATALOGUE);
  const all = DEFAULT_CATALOGUE.map((c) => c.campaign.slug);
  const quests = DEFAULT_CATALOGUE.reduce((n, c) => n + c.quests.length, 0);
  process.stdout.write(
    created.length
      ? `quests:seed: created campaign(s) ${created.join(', ')}; ${quests} quest(s) in the catalogue\n`
      : `quests:seed: nothing to do, campaign(s) ${all.join(', ')} already exist\n`,
  );
} catch (err) {
  process.stderr.write(`quests:seed failed: ${err instanceof Error ? err.message : String(err)}\n`);
  code = 1;
} finally {
  await db.close();
}
process.exit(code);
