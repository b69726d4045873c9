// The public API table of docs/client.md, read from the package's entry points with the TypeScript checker: each
// export, its kind, its signature or members, and the first sentence of its doc comment. `npm run client:api-docs`
// rewrites the table; check-generated fails when it is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLIENT_DOC = 'docs/client.md';
const ENTRIES = { '@platform/client': 'packages/client/src/index.ts', '@platform/client/rest': 'packages/client/src/rest.ts' };
const START = '<!-- client-api:start (npm run client:api-docs) -->';
const END = '<!-- client-api:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
const firstSentence = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/\.(\s|$)/);
  return end < 0 ? flat : flat.slice(0, end + 1);
};

function describeSymbol(checker: ts.TypeChecker, symbol: ts.Symbol): { kind: string; shape: string } {
  const decl = symbol.declarations?.[0];
  if (!decl) return { kind: '', shape: '' };
  if (ts.isFunctionDeclaration(decl)) {
    const sig = checker.getSignatureFromDeclaration(decl);
    return { kind: 'function', shape: sig ? checker.signatureToString(sig, undefined, ts.TypeFormatFlags.NoTruncation) : '' };
  }
  if (ts.isClassDeclaration(decl)) return { kind: 'class', shape: '' };
  if (ts.isInterfaceDeclaration(decl)) {
    const members = checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol)).map((m) => m.name);
    if (members.length > 12) return { kind: 'interface', shape: `{ ${members.slice(0, 4).join(', ')}, … } (${members.length} members)` };
    return { kind: 'interface', shape: members.length ? `{ ${members.join(', ')} }` : '' };
  }
  if (ts.isTypeAliasDeclaration(decl)) return { kind: 'type', shape: '' };
  if (ts.isVariableDeclaration(decl)) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, decl);
    if (checker.isTupleType(type)) return { kind: 'const', shape: `readonly [${checker.getTypeArguments(type as ts.TypeReference).length} items]` };
    return { kind: 'const', shape: checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation) };
  }
  return { kind: ts.SyntaxKind[decl.kind], shape: '' };
}

/** The markdown table, one row per export; the generated operations are counted, not listed. */
export function renderClientApi(): string {
  const files = Object.values(ENTRIES).map((f) => path.join(ROOT, f));
  const program = ts.createProgram(files, { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, skipLibCheck: true, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const rows = ['| Entry | Export | Kind | Shape | What |', '|---|---|---|---|---|'];
  for (const [entry, file] of Object.entries(ENTRIES)) {
    const source = program.getSourceFile(path.join(ROOT, file))!;
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!);
    let documents = 0;
    let operationTypes = 0;
    for (const exported of [...exports].sort((a, b) => a.name.localeCompare(b.name))) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const from = symbol.declarations?.[0]?.getSourceFile().fileName ?? '';
      if (from.includes('/generated/graphql')) {
        if (exported.name.endsWith('Document')) documents++;
        else operationTypes++;
        continue;
      }
      const { kind, shape } = describeSymbol(checker, symbol);
      const what = firstSentence(ts.displayPartsToString(symbol.getDocumentationComment(checker)));
      rows.push(`| \`${entry}\` | \`${exported.name}\` | ${kind} | ${shape ? `\`${cell(shape)}\`` : ''} | ${cell(what)} |`);
    }
    if (documents) rows.push(`| \`${entry}\` | \`<Name>Document\` ×${documents} | const | \`PersistedDocument<Result, Variables>\` | One per operation of schema/operations (and ${operationTypes} result, variables and input types). |`);
  }
  return rows.join('\n');
}

export function withClientApi(page: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${CLIENT_DOC}: no ${START} … ${END} section`);
  return `${page.slice(0, start + START.length)}\n\n${renderClientApi()}\n\n${page.slice(end)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = path.join(ROOT, CLIENT_DOC);
  writeFileSync(file, withClientApi(readFileSync(file, 'utf8')));
}
