// Every TypeScript snippet of docs/client.md, type-checked against the package's source: a change of the package that
// breaks the documentation fails here. Snippets fenced `ts apollo` and `ts urql` are checked against those libraries (devDependencies).
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const DOC = path.join(ROOT, 'docs/client.md');
const LIBRARIES: Record<string, string> = { apollo: '@apollo/client', urql: '@urql/core' };

/** The ```ts blocks of the page, with what follows `ts` on the fence (`apollo`, `urql` or nothing). */
function snippets(): Array<{ tag: string; code: string; line: number }> {
  const found: Array<{ tag: string; code: string; line: number }> = [];
  const lines = readFileSync(DOC, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```ts(?:\s+(\w+))?\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && lines[i] !== '```') body.push(lines[i]!);
    found.push({ tag: open[1] ?? '', code: body.join('\n'), line: start + 1 });
  }
  return found;
}

// inside the repository, so the snippets resolve @mysten/sui and the package's dependencies from its node_modules
const dir = path.join(ROOT, '.test-dist', `client-docs-${randomBytes(4).toString('hex')}`);

async function typecheck(files: string[]): Promise<string> {
  const tsconfig = path.join(dir, `tsconfig-${randomBytes(3).toString('hex')}.json`);
  const client = path.join(ROOT, 'packages/client/src');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
        paths: { '@platform/client': [path.join(client, 'index.ts')], '@platform/client/rest': [path.join(client, 'rest.ts')] },
      },
      files,
    }),
  );
  try {
    await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', tsconfig], { cwd: dir });
    return '';
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? err);
  }
}

describe('docs/client.md', () => {
  mkdirSync(dir, { recursive: true });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const all = snippets();
  const write = (tag: string) =>
    all
      .filter((s) => s.tag === tag)
      .map((s) => {
        const file = path.join(dir, `snippet-${tag || 'client'}-line-${s.line}.ts`);
        writeFileSync(file, `${s.code}\nexport {};\n`);
        return file;
      });

  it('has snippets for the client, Apollo Client and urql', () => {
    expect(all.filter((s) => s.tag === '').length).toBeGreaterThanOrEqual(6);
    for (const tag of Object.keys(LIBRARIES)) expect(all.some((s) => s.tag === tag)).toBe(true);
  });

  it('type-checks the client snippets against the package', async () => {
    expect(await typecheck(write(''))).toBe('');
  }, 60_000);

  for (const [tag, library] of Object.entries(LIBRARIES)) {
    it(`type-checks the ${library} snippet against the package and ${library}`, async () => {
      expect(await typecheck(write(tag))).toBe('');
    }, 60_000);
  }
});
