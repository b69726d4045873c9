import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { AppError } from '../../src/errors';
import { parseInput } from '../../src/input/validate';
import { LABEL_MAX_LENGTH, RESERVED_LABELS, subnameClaimInput } from '../../src/services/nameservice/subname';

const judge = (label: unknown) => {
  try {
    return { label: parseInput(subnameClaimInput, { label }).label };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { code: err.code, issues: (err.details?.issues as Array<{ path: string; message: string }>).map((i) => `${i.path}: ${i.message}`) };
  }
};

describe('sub-name labels (SuiNS rules)', () => {
  it('accepts 3–63 characters of a-z, 0-9 and inner hyphens', () => {
    for (const label of ['abc', 'a1b', '007', 'a-b', 'a--b', 'x'.repeat(LABEL_MAX_LENGTH), 'player-one-2']) expect(judge(label)).toEqual({ label });
  });

  it('folds upper case to lower case (SuiNS names are case-insensitive)', () => {
    expect(judge('LuckyAce')).toEqual({ label: 'luckyace' });
  });

  it('refuses what SuiNS refuses, naming the reason', () => {
    expect(judge('ab')).toEqual({ code: 'VALIDATION_FAILED', issues: ['/label: must be at least 3 characters'] });
    expect(judge('x'.repeat(LABEL_MAX_LENGTH + 1))).toEqual({ code: 'VALIDATION_FAILED', issues: ['/label: must be at most 63 characters'] });
    for (const label of ['under_score', 'dot.ted', 'spa ce', ' abc', 'émile', 'abc\u200b']) {
      expect(judge(label)).toEqual({ code: 'VALIDATION_FAILED', issues: ['/label: may contain only a-z, 0-9 and hyphens'] });
    }
    for (const label of ['-abc', 'abc-', '---']) expect(judge(label)).toEqual({ code: 'VALIDATION_FAILED', issues: ['/label: must not start or end with a hyphen'] });
    expect(judge(undefined)).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(judge(123)).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('refuses every reserved word, in any case', () => {
    expect(RESERVED_LABELS.size).toBeGreaterThan(10);
    for (const word of RESERVED_LABELS) {
      expect(judge(word)).toEqual({ code: 'VALIDATION_FAILED', issues: ['/label: is reserved'] });
      expect(judge(word.toUpperCase())).toEqual({ code: 'VALIDATION_FAILED', issues: ['/label: is reserved'] });
    }
    expect(judge('admins')).toEqual({ label: 'admins' });
  });
});

describe('CHAIN.NAMESERVICE_* settings', () => {
  const load = (env: Record<string, string>) => loadConfig({ envDir: '/nonexistent', env });
  const problems = (env: Record<string, string>) => {
    try {
      load(env);
      return [];
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      return err.problems;
    }
  };

  it('defaults: no parent (claims unavailable), level 1, 365 days', () => {
    expect(load({}).chain.nameservice).toEqual({ minVipLevel: 1, expirationDays: 365 });
  });

  it('takes a SuiNS parent name and normalizes object ids', () => {
    const c = load({ 'CHAIN.NAMESERVICE_PARENT_DOMAIN': 'games.platform.sui', 'CHAIN.NAMESERVICE_PARENT_NFT_ID': '0xAB', 'CHAIN.NAMESERVICE_MIN_VIP_LEVEL': '0' }).chain.nameservice;
    expect(c).toMatchObject({ parentDomain: 'games.platform.sui', parentNftId: `0x${'0'.repeat(62)}ab`, minVipLevel: 0 });
  });

  it('refuses names that are not SuiNS names, bad ids and a zero expiry', () => {
    expect(problems({ 'CHAIN.NAMESERVICE_PARENT_DOMAIN': 'Platform.sui' })).toHaveLength(1);
    expect(problems({ 'CHAIN.NAMESERVICE_PARENT_DOMAIN': 'platform.com' })).toHaveLength(1);
    expect(problems({ 'CHAIN.NAMESERVICE_PARENT_DOMAIN': '-x.sui' })).toHaveLength(1);
    expect(problems({ 'CHAIN.NAMESERVICE_SUINS_OBJECT_ID': 'suins' })).toHaveLength(1);
    expect(problems({ 'CHAIN.NAMESERVICE_SUBNAME_EXPIRATION_DAYS': '0' })).toEqual(['CHAIN.NAMESERVICE_SUBNAME_EXPIRATION_DAYS: must be >= 1 (got "0")']);
  });
});
