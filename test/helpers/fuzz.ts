import fc from 'fast-check';
import { startApi, type TestApi } from './api';
import { loginWithKeypair } from './auth';

/** Text that breaks naive parsers: empty, huge, non-ASCII, lone surrogates, NUL, numbers out of range, near-miss addresses and types. */
export const oddText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.fullUnicodeString({ maxLength: 40 }),
  fc.constantFrom(
    ...['', ' ', '-1', '0', '1.5', '1e309', 'NaN', 'null', 'true', '[]', '{}', '..', '%', '\u0000', '\ud800', '2026-13-45'],
    ...['0x', '0x2', '0x' + 'f'.repeat(64), '0x' + 'g'.repeat(64), '0x2::sui::SUI', '::', 'a'.repeat(5000), '9'.repeat(40)],
  ),
  fc.integer().map(String),
);

/** The API with limits no fuzzing run reaches, and an access token of a freshly logged-in wallet. */
export async function startFuzzTarget(): Promise<{ api: TestApi; token: string }> {
  const api = await startApi({ env: { 'HTTP.RATE_LIMIT_MAX': '1000000', 'QUESTS.CLAIM_RATE_LIMIT_MAX': '1000000' } });
  return { api, token: (await loginWithKeypair(api.url)).accessToken };
}

/** fast-check run settings: a fixed seed in CI; FUZZ_RUNS and FUZZ_SEED to explore. */
export const fuzzRuns = (defaultRuns: number) => ({ numRuns: Number(process.env.FUZZ_RUNS ?? defaultRuns), seed: Number(process.env.FUZZ_SEED ?? 20261126) });
