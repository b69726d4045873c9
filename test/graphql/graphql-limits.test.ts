import { buildSchema, parse, specifiedRules, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { queryLimitRules } from '../../src/graphql/limits';
import { checkDocumentSource, DOCUMENT_CAPS, PARSE_OPTIONS } from '../../src/graphql/document-caps';

const schema = buildSchema(`
  type Entry { rank: Int! player: String! friends(limit: Int): [Entry!]! }
  type Query { board(limit: Int): [Entry!]! one: Entry }
`);

const errorsOf = (query: string, limits = { maxDepth: 10, maxAliases: 20, maxCost: 1000 }) =>
  validate(schema, parse(query), [...specifiedRules, ...queryLimitRules(limits)]).map((e) => e.message);

describe('GraphQL query limits', () => {
  it('multiplies fields by the literal list size, inline or through fragments', () => {
    // board (1) + 100 × (rank + player) = 201
    expect(errorsOf('{ board(limit: 100) { rank player } }', { maxDepth: 10, maxAliases: 20, maxCost: 201 })).toEqual([]);
    expect(errorsOf('{ board(limit: 100) { rank player } }', { maxDepth: 10, maxAliases: 20, maxCost: 200 })).toEqual(['Query cost exceeds the limit of 200 (counted at least 201)']);
    const viaFragment = 'query { board(limit: 100) { ...E } } fragment E on Entry { rank player }';
    expect(errorsOf(viaFragment, { maxDepth: 10, maxAliases: 20, maxCost: 200 })).toHaveLength(1);
    expect(errorsOf(viaFragment, { maxDepth: 10, maxAliases: 20, maxCost: 201 })).toEqual([]);
  });

  it('uses the default list size without a literal limit and nests multipliers', () => {
    // board (1) + 10 × (friends (1) + 50 × rank (1)) = 511
    expect(errorsOf('{ board { friends(limit: 50) { rank } } }', { maxDepth: 10, maxAliases: 20, maxCost: 511 })).toEqual([]);
    expect(errorsOf('{ board { friends(limit: 50) { rank } } }', { maxDepth: 10, maxAliases: 20, maxCost: 510 })).toHaveLength(1);
  });

  it('limits depth through fragments and aliases per operation', () => {
    const deep = 'query { one { ...F } } fragment F on Entry { friends { friends { rank } } }';
    expect(errorsOf(deep, { maxDepth: 3, maxAliases: 20, maxCost: 1000 })).toEqual(['Query depth 4 exceeds the limit of 3']);
    const aliases = `{ ${Array.from({ length: 3 }, (_, i) => `a${i}: one { rank }`).join(' ')} }`;
    expect(errorsOf(aliases, { maxDepth: 10, maxAliases: 2, maxCost: 1000 })).toEqual(['Query uses more than 2 aliases']);
  });

  it('survives cyclic fragments without looping (graphql reports the cycle)', () => {
    const cyclic = 'query { one { ...A } } fragment A on Entry { friends { ...B } } fragment B on Entry { friends { ...A } }';
    expect(errorsOf(cyclic).some((m) => /cannot spread fragment/i.test(m))).toBe(true);
  });
});

describe('linear-time analysis of fragments', () => {
  const bomb = (levels: number, leaf = 'rank') =>
    'query { one { ...F0 } } ' +
    Array.from({ length: levels }, (_, i) => (i < levels - 1 ? `fragment F${i} on Entry { ...F${i + 1} ...F${i + 1} }` : `fragment F${i} on Entry { ${leaf} }`)).join(' ');

  it('measures each fragment once: a 60-level bomb (2^60 paths) is refused by cost, with the count saturated', () => {
    const errors = validate(schema, parse(bomb(60)), queryLimitRules({ maxDepth: 10, maxAliases: 20, maxCost: 1000 }));
    expect(errors.map((e) => [e.message, e.extensions.code])).toEqual([['Query cost exceeds the limit of 1000 (counted at least 1001)', 'QUERY_TOO_COMPLEX']]);
  });

  it('reuses a fragment measured at one spread for the depth at another', () => {
    const deepFragment = 'fragment D on Entry { friends { friends { rank } } }';
    expect(errorsOf(`query { one { ...D } board { friends { ...D } } } ${deepFragment}`, { maxDepth: 4, maxAliases: 20, maxCost: 100_000 })).toEqual(['Query depth 5 exceeds the limit of 4']);
    expect(errorsOf(`query { one { ...D } board { ...D } } ${deepFragment}`, { maxDepth: 4, maxAliases: 20, maxCost: 100_000 })).toEqual([]);
  });

  it('limits repeated response names, fragment spreads per selection set and definitions per document', () => {
    const limits = { maxDepth: 10, maxAliases: 100, maxCost: 100_000 };
    expect(errorsOf(`{ ${'one { rank } '.repeat(9)}}`, limits)).toEqual(['A selection set repeats "one" more than 8 times']);
    expect(errorsOf(`{ ${'one { rank } '.repeat(8)}}`, limits)).toEqual([]);
    const spreads = (n: number) => `{ one { ${Array.from({ length: n }, (_, i) => `...S${i}`).join(' ')} } } ${Array.from({ length: n }, (_, i) => `fragment S${i} on Entry { rank }`).join(' ')}`;
    expect(errorsOf(spreads(17), limits)).toEqual(['A selection set spreads more than 16 fragments']);
    expect(errorsOf(spreads(16), limits)).toEqual([]);
    const operations = Array.from({ length: 65 }, (_, i) => `query Q${i} { one { rank } }`).join(' ');
    expect(errorsOf(operations, limits)).toEqual(['Query document has more than 64 operations and fragments']);
  });
});

describe('document caps before parsing', () => {
  it('refuses long documents, too many tokens and deep nesting without parsing; leaves syntax errors to the parser', () => {
    const code = (source: string) => checkDocumentSource(source)?.extensions.code ?? null;
    expect(checkDocumentSource(`{ one { rank } } #${'x'.repeat(DOCUMENT_CAPS.maxChars)}`)?.message).toBe(`Query document is longer than ${DOCUMENT_CAPS.maxChars} characters`);
    expect(checkDocumentSource(`{ ${'rank '.repeat(DOCUMENT_CAPS.maxTokens)}}`)?.message).toBe(`Query document has more than ${DOCUMENT_CAPS.maxTokens} tokens`);
    expect(checkDocumentSource(`{ board(limit: ${'['.repeat(40)}${']'.repeat(40)}) { rank } }`)?.message).toBe(`Query document nests deeper than ${DOCUMENT_CAPS.maxNesting} levels`);
    expect(code(`{ one { rank } } # ${'comment '.repeat(1000)}`)).toBeNull();
    expect(code('{ one { "unterminated }')).toBeNull();
    expect(() => parse(`{ ${'rank '.repeat(DOCUMENT_CAPS.maxTokens)}}`, PARSE_OPTIONS)).toThrow(/Document contains more tha[nt] \d+ tokens/);
  });
});
