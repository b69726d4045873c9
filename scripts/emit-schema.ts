// Writes schema/schema.graphql from the type-graphql resolvers (sorted, so the file is stable).
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { renderSchema } from './schema-sdl';

writeFileSync('schema/schema.graphql', await renderSchema());
process.stdout.write('wrote schema/schema.graphql\n');
