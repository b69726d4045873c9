// Writes the settings table of docs/settings.md from the declarations in src/config/settings.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { SETTINGS_PAGE, withSettingsTable } from './settings-table';

writeFileSync(SETTINGS_PAGE, withSettingsTable(readFileSync(SETTINGS_PAGE, 'utf8')));
process.stdout.write(`wrote the settings table of ${SETTINGS_PAGE}\n`);
