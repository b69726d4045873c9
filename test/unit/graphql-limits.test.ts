import { buildSchema, parse, specifiedRules, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { queryLimitRules } from '../../src/graphql/limits';

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
