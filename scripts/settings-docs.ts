// Writes the settings table of README.md from the declarations in src/config/settings.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { withSettingsTable } from './settings-table';

writeFileSync('README.md', withSettingsTable(readFileSync('README.md', 'utf8')));
process.stdout.write('wrote the settings table of README.md\n');
