// Fails when a generated file is stale: schema/schema.graphql, schema/openapi.json and the console's types of it, the codegen client, the client package's
// documents, REST types and API table, the Prisma client, the settings table of docs/settings.md,
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
import { OPENAPI_FORMS_FILE, OPENAPI_TYPES_FILES, renderOpenApiForms, renderOpenApiTypes } from './openapi-types';
import { CLIENT_DOC, withClientApi } from './client-api-docs';

const stale: string[] = [];

const sdl = await renderSchema();
if (readFileSync('schema/schema.graphql', 'utf8') !== sdl) stale.push('schema/schema.graphql (run `npm run schema:emit`)');

const openapi = await renderOpenApiDocument();
if (readFileSync(OPENAPI_FILE, 'utf8') !== openapi) stale.push(`${OPENAPI_FILE} (run \`npm run openapi:emit\`)`);
// The types the console and the client package are checked against: generated from the document the routes render now.
const openapiTypes = await renderOpenApiTypes(openapi);
for (const file of OPENAPI_TYPES_FILES) if (readFileSync(file, 'utf8') !== openapiTypes) stale.push(`${file} (run \`npm run openapi:emit && npm run openapi:types\`)`);
if (readFileSync(OPENAPI_FORMS_FILE, 'utf8') !== renderOpenApiForms(openapi)) stale.push(`${OPENAPI_FORMS_FILE} (run \`npm run openapi:emit && npm run openapi:types\`)`);

const clientPage = readFileSync(CLIENT_DOC, 'utf8');
if (withClientApi(clientPage) !== clientPage) stale.push(`the public API table of ${CLIENT_DOC} (run \`npm run client:api-docs\`)`);

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
  const clientOut = join(dir, 'client-graphql.ts');
  // a document the schema no longer accepts, or a root field without a document, fails here (codegen exits non-zero)
  execFileSync(process.execPath, ['node_modules/@graphql-codegen/cli/cjs/bin.js', '--config', 'codegen.ts', '--silent'], {
    env: { ...process.env, CODEGEN_SCHEMA: schemaCopy, CODEGEN_OUTPUT: out, CODEGEN_CLIENT_OUTPUT: clientOut },
    stdio: 'inherit',
  });
  if (!existsSync(out) || readFileSync(out, 'utf8') !== readFileSync('src/generated/graphql.ts', 'utf8')) stale.push('src/generated/graphql.ts (run `npm run codegen`)');
  const clientDocuments = 'packages/client/src/generated/graphql.ts';
  if (!existsSync(clientOut) || readFileSync(clientOut, 'utf8') !== readFileSync(clientDocuments, 'utf8')) stale.push(`${clientDocuments} (run \`npm run codegen\`)`);
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
