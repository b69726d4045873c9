type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/** Polls `check` until it returns something truthy and returns that (no fixed sleeps); fails naming `what` after `timeoutMs`. */
export async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs = 10_000, everyMs = 25): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
