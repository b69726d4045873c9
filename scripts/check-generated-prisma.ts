// Fails when src/generated/prisma is not what `prisma generate` makes from schema/schema.prisma:
// regenerates into a temp dir (same schema, output redirected) and compares file by file.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPrisma } from './prisma';

const root = fileURLToPath(new URL('..', import.meta.url));
const committed = join(root, 'src', 'generated', 'prisma');

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

export async function checkGeneratedPrisma(): Promise<string[]> {
  const tmp = await mkdtemp(join(tmpdir(), 'prisma-gen-'));
  try {
    const out = join(tmp, 'prisma');
    const original = await readFile(join(root, 'schema', 'schema.prisma'), 'utf8');
    const outputRe = /(output\s*=\s*)"([^"]*)"/;
    const committedOutput = outputRe.exec(original)?.[2] ?? '';
    const schema = original.replace(outputRe, (_m, lead: string) => `${lead}${JSON.stringify(out)}`);
    // Same directory depth as schema/, so any schema-relative path in the output stays the same.
    const schemaPath = join(root, 'schema', `.check-generated-${process.pid}.prisma`);
    await writeFile(schemaPath, schema);
    let code: number;
    try {
      code = await runPrisma(['generate', '--schema', schemaPath]);
    } finally {
      await rm(schemaPath, { force: true });
    }
    if (code !== 0) return [`prisma generate exited with ${code}`];
    const [want, have] = await Promise.all([listFiles(out), listFiles(committed).catch((): string[] => [])]);
    const problems: string[] = [];
    for (const f of want) {
      if (!have.includes(f)) problems.push(`missing: src/generated/prisma/${f}`);
      // The client embeds its schema, output path included: compare as if generated in place.
      else if ((await readFile(join(out, f), 'utf8')).replaceAll(out, committedOutput) !== (await readFile(join(committed, f), 'utf8'))) {
        problems.push(`differs: src/generated/prisma/${f}`);
      }
    }
    for (const f of have) if (!want.includes(f)) problems.push(`extra: src/generated/prisma/${f}`);
    return problems;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = await checkGeneratedPrisma();
  if (problems.length) {
    console.error(`src/generated/prisma is stale (run \`npm run prisma -- generate\`):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log('src/generated/prisma is up to date');
}
