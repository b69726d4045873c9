/** Test-side view of which real services are configured. Only test code reads process.env. */
export const testEnv = {
  databaseUrl: process.env.DATABASE_URL || undefined,
  redisUrl: process.env.SHARED_STORE_URL || undefined,
  requireServices: process.env.REQUIRE_SERVICES === '1',
};

/**
 * For suites that need a real service: returns true to run. Without the service it
 * returns false (the suite is skipped) or, under REQUIRE_SERVICES=1, throws so the run fails.
 */
export function needsService(name: 'DATABASE_URL' | 'SHARED_STORE_URL'): boolean {
  const present = name === 'DATABASE_URL' ? Boolean(testEnv.databaseUrl) : Boolean(testEnv.redisUrl);
  if (!present && testEnv.requireServices) throw new Error(`REQUIRE_SERVICES=1 but ${name} is not set`);
  return present;
}
