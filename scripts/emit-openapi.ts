import { writeFileSync } from 'node:fs';
import { OPENAPI_FILE, renderOpenApiDocument } from './openapi-document';

writeFileSync(OPENAPI_FILE, await renderOpenApiDocument());
process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
