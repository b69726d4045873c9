import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrayParam, arrayParamType, type ArrayEncoding } from '../../src/indexer/array-params.js';
import { createTestDb, type TestDb } from '../helpers/db.js';

// A batch's columns as array parameters, read back by the database they are written to: binary
// arrays on PostgreSQL, text literals everywhere.

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t?.cleanup());

const COLUMNS: [cast: string, values: unknown[], read: string][] = [
  ['text', ['0x' + 'ab'.repeat(32), 'a "quoted" \\ value, {braces}', 'naïve ☃', '', 'NULL', null], 'coalesce(v, \'<null>\')'],
  ['int', [0, 1, -1, 2_147_483_647, -2_147_483_648, null], "coalesce(v::text, '<null>')"],
  ['bigint', [0, 1_764_201_600_123, -5, 2n ** 63n - 1n, -(2n ** 63n), Number.MAX_SAFE_INTEGER, null], "coalesce(v::text, '<null>')"],
  ['boolean', [true, false, null], "coalesce(v::text, '<null>')"],
  ['numeric', ['0', '18446744073709551615', 7n, null], "coalesce(v::text, '<null>')"],
  ['timestamptz', ['2026-01-06T00:00:00.000Z', null], "coalesce(to_char(v AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS'), '<null>')"],
];

const shown = (v: unknown): string => (v === null ? '<null>' : String(v));

describe('array parameters', () => {
  const encodings = (): ArrayEncoding[] => (t.kind === 'postgres' ? ['binary', 'text'] : ['text']);

  it.each(COLUMNS)('round-trips %s columns, nulls and empty batches included', async (cast, values, read) => {
    for (const encoding of encodings()) {
      const type = arrayParamType(cast, encoding);
      const rows = await t.db.query<{ v: string }>(`SELECT ${read} AS v FROM unnest($1::${type}) WITH ORDINALITY AS u(v, n) ORDER BY n`, [arrayParam(values, cast, encoding)]);
      const want = cast === 'timestamptz' ? ['2026-01-06 00:00:00.000', '<null>'] : values.map(shown);
      expect(rows.map((r) => r.v), `${cast} as ${encoding}`).toEqual(want);
      const empty = await t.db.query<{ n: number }>(`SELECT cardinality($1::${type}) AS n`, [arrayParam([], cast, encoding)]);
      expect(Number(empty[0].n), `empty ${cast} as ${encoding}`).toBe(0);
    }
  });

  it('refuses a number that is no int8', () => {
    expect(() => arrayParam([1.5], 'bigint', 'binary')).toThrow(RangeError);
  });
});
