import type { SharedStore } from './types';

/** Members per store command. */
const CHUNK = 1_000;

/**
 * Renews every member of every set with one expiry: one `addMembers` per set and 1,000 members
 * (heartbeats of many connections), instead of a command per member. Resolves when all are written;
 * a failed chunk rejects the whole renewal.
 */
export async function renewMembers(store: SharedStore, members: (add: (set: string, member: string) => void) => void, ttlMs: number): Promise<void> {
  const bySet = new Map<string, string[]>();
  members((set, member) => {
    let list = bySet.get(set);
    if (!list) bySet.set(set, (list = []));
    list.push(member);
  });
  const writes: Array<Promise<number>> = [];
  for (const [set, list] of bySet) for (let i = 0; i < list.length; i += CHUNK) writes.push(store.addMembers(set, list.slice(i, i + CHUNK), ttlMs));
  await Promise.all(writes);
}
