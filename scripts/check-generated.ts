// Fails when a generated file is stale: schema/schema.graphql, schema/openapi.json and its TypeScript types, the codegen client, the Prisma client, the settings table of docs/settings.md,
// compose's Prometheus scrape config, the dashboard's panel list in docs/operations.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import 'reflect-metadata';
import { renderSchema } from './schema-sdl';
import { SETTINGS_PAGE, withSettingsTable } from './settings-table';
import { composePrometheusConfig } from './prometheus-config';
import { OPERATIONS_PAGE, withDashboardPanels } from './dashboard-docs';
import { OPENAPI_FILE, renderOpenApiDocument } from './openapi-document';
import { OPENAPI_TYPES_FILE, renderOpenApiTypes } from './openapi-types';

const stale: string[] = [];

const sdl = await renderSchema();
if (readFileSync('schema/schema.graphql', 'utf8') !== sdl) stale.push('schema/schema.graphql (run `npm run schema:emit`)');

const openapi = await renderOpenApiDocument();
if (readFileSync(OPENAPI_FILE, 'utf8') !== openapi) stale.push(`${OPENAPI_FILE} (run \`npm run openapi:emit\`)`);
// The types the console is checked against: generated from the document the routes render now.
if (readFileSync(OPENAPI_TYPES_FILE, 'utf8') !== (await renderOpenApiTypes(openapi))) stale.push(`${OPENAPI_TYPES_FILE} (run \`npm run openapi:emit && npm run openapi:types\`)`);

const settingsPage = readFileSync(SETTINGS_PAGE, 'utf8');
if (withSettingsTable(settingsPage) !== settingsPage) stale.push(`the settings table of ${SETTINGS_PAGE} (run \`npm run settings:docs\`)`);

if (readFileSync('deploy/prometheus/prometheus.compose.yml', 'utf8') !== composePrometheusConfig(3)) stale.push('deploy/prometheus/prometheus.compose.yml (run `npm run prometheus:config > deploy/prometheus/prometheus.compose.yml`)');

const operationsPage = readFileSync(OPERATIONS_PAGE, 'utf8');
if (withDashboardPanels(operationsPage) !== operationsPage) stale.push(`the dashboard panels of ${OPERATIONS_PAGE} (run \`npm run dashboard:docs\`)`);

// codegen reads the checked-in schema; compare its output with the checked-in client
const dir = mkdtempSync(join(tmpdir(), 'codegen-'));
try {
  const schemaCopy = join(dir, 'schema.graphql');
  writeFileSync(schemaCopy, sdl);
  const out = join(dir, 'graphql.ts');
  execFileSync(process.execPath, ['node_modules/@graphql-codegen/cli/cjs/bin.js', '--config', 'codegen.ts', '--silent'], {
    env: { ...process.env, CODEGEN_SCHEMA: schemaCopy, CODEGEN_OUTPUT: out },
    stdio: 'inherit',
  });
  if (!existsSync(out) || readFileSync(out, 'utf8') !== readFileSync('src/generated/graphql.ts', 'utf8')) stale.push('src/generated/graphql.ts (run `npm run codegen`)');
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (existsSync('scripts/check-generated-prisma.ts')) {
  try {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/check-generated-prisma.ts'], { stdio: 'inherit' });
  } catch {
    stale.push('src/generated/prisma (run `npm run prisma -- generate`)');
  }
}

if (stale.length) {
  process.stderr.write(`Stale generated files:\n${stale.map((s) => `  - ${s}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('generated files are fresh\n');
