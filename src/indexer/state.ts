import type { KindKey } from '../chain-events/kinds.js';
import type { IndexerMode, IndexerStatus, KindStatus } from '../chain-events/indexer-status.js';

interface KindState {
  kind: KindKey;
  caughtUp: boolean;
  /** Reached the tip at least once this term: from then on its new events are news. */
  following: boolean;
  batchesSinceTip: number;
  firstCheckpoint: bigint | null;
  lastCheckpoint: bigint | null;
  lastEventAtMs: number | null;
  eventsIndexed: number;
  /** Non-empty: the chain's struct differs from the decoder's; the kind is not followed. */
  contractDifferences: string[];
}

const RATE_WINDOW_MS = 10_000;
/** How far behind the tip a following kind's events are still news (about a minute of Sui checkpoints). */
export const NEWS_WINDOW_CHECKPOINTS = 250n;

/** What the leader knows about its own progress; pure bookkeeping, no I/O. */
export function createIndexerState(instanceId: string, kinds: readonly KindKey[], now: () => number = Date.now) {
  const byKind = new Map<KindKey, KindState>();
  let leaderSinceMs: number | null = null;
  let tip: bigint | null = null;
  let total = 0;
  let startedAtMs = now();
  let startProgress: number | null = null;
  const samples: Array<[number, number]> = [];

  const reset = () => {
    byKind.clear();
    for (const kind of kinds) {
      byKind.set(kind, { kind, caughtUp: false, following: false, batchesSinceTip: 0, firstCheckpoint: null, lastCheckpoint: null, lastEventAtMs: null, eventsIndexed: 0, contractDifferences: [] });
    }
    total = 0;
    samples.length = 0;
    startedAtMs = now();
    startProgress = null;
  };
  reset();

  /** Kinds this term follows: a refused kind is never caught up, and would otherwise hold the mode at backfill. */
  const followed = () => [...byKind.values()].filter((k) => k.contractDifferences.length === 0);
  const mode = (): IndexerMode => (leaderSinceMs === null ? 'standby' : followed().every((k) => k.caughtUp) ? 'live' : 'backfill');

  function rate(): number {
    const t = now();
    while (samples.length > 1 && t - samples[0][0] > RATE_WINDOW_MS) samples.shift();
    if (samples.length < 2) return 0;
    const [t0, n0] = samples[0];
    const span = (t - t0) / 1000;
    return span > 0 ? (total - n0) / span : 0;
  }

  /** Mean over kinds of how far each got from its first checkpoint this term to the tip (1 when caught up). */
  function progress(): number | null {
    if (tip === null) return null;
    const kinds = followed();
    if (kinds.length === 0) return null;
    let sum = 0;
    for (const k of kinds) {
      if (k.caughtUp) sum += 1;
      else if (k.lastCheckpoint !== null && k.firstCheckpoint !== null && tip > k.firstCheckpoint) {
        sum += Math.min(1, Number(k.lastCheckpoint - k.firstCheckpoint) / Number(tip - k.firstCheckpoint));
      }
    }
    return sum / kinds.length;
  }

  function kindView(k: KindState, at: number): KindStatus {
    const behind = tip === null || k.lastCheckpoint === null ? null : k.caughtUp || k.lastCheckpoint >= tip ? 0n : tip - k.lastCheckpoint;
    return {
      kind: k.kind,
      caughtUp: k.caughtUp,
      lastCheckpoint: k.lastCheckpoint?.toString() ?? null,
      lastEventAtMs: k.lastEventAtMs,
      lagSeconds: k.lastEventAtMs === null ? null : Math.max(0, (at - k.lastEventAtMs) / 1000),
      checkpointsBehind: behind?.toString() ?? null,
      eventsIndexed: k.eventsIndexed,
      contractDifferences: [...k.contractDifferences],
    };
  }

  return {
    becameLeader() {
      reset();
      leaderSinceMs = now();
      samples.push([now(), 0]);
    },
    lostLeadership() {
      leaderSinceMs = null;
    },
    /** Position loaded from the cursor table at the start of a term. */
    restored(kind: KindKey, checkpoint: bigint | null, eventAtMs: number | null) {
      const k = byKind.get(kind)!;
      k.lastCheckpoint = checkpoint;
      k.firstCheckpoint = checkpoint;
      k.lastEventAtMs = eventAtMs;
    },
    /** A committed batch; returns true when the kind is (still) following the tip. */
    committed(kind: KindKey, inserted: number, last: { checkpoint: bigint | null; timestampMs: number } | undefined): boolean {
      const k = byKind.get(kind)!;
      k.batchesSinceTip++;
      if (k.batchesSinceTip > 1) k.caughtUp = false;
      if (last) {
        if (k.firstCheckpoint === null) k.firstCheckpoint = last.checkpoint;
        if (last.checkpoint !== null) k.lastCheckpoint = last.checkpoint;
        k.lastEventAtMs = last.timestampMs;
      }
      k.eventsIndexed += inserted;
      total += inserted;
      samples.push([now(), total]);
      return k.caughtUp;
    },
    /** The kind's struct on chain differs from its decoder's: not followed this term. */
    refused(kind: KindKey, differences: readonly string[]) {
      byKind.get(kind)!.contractDifferences = [...differences];
    },
    reachedTip(kind: KindKey) {
      const k = byKind.get(kind)!;
      k.caughtUp = true;
      k.following = true;
      k.batchesSinceTip = 0;
    },
    /**
     * Whether a committed batch ending at `checkpoint` is news for the activity feed. A kind's
     * first catch-up in a term is not; after that, a burst that spans several pages still is,
     * unless the kind fell more than the news window behind the known tip (an outage's backlog).
     */
    isNews(kind: KindKey, checkpoint: bigint | null): boolean {
      const k = byKind.get(kind)!;
      if (!k.following || leaderSinceMs === null) return false;
      return tip === null || checkpoint === null || tip - checkpoint <= NEWS_WINDOW_CHECKPOINTS;
    },
    setTip(checkpoint: bigint | null) {
      if (checkpoint !== null) tip = checkpoint;
    },
    mode,
    totalIndexed: () => total,
    snapshot(): IndexerStatus {
      const at = now();
      const p = progress();
      if (p !== null && startProgress === null) startProgress = p;
      const elapsed = (at - startedAtMs) / 1000;
      const gained = p !== null && startProgress !== null ? p - startProgress : 0;
      const etaSeconds = p === null || mode() !== 'backfill' || gained <= 0 ? null : (elapsed * (1 - p)) / gained;
      return {
        instanceId,
        leader: leaderSinceMs !== null,
        leaderSinceMs,
        mode: mode(),
        tipCheckpoint: tip?.toString() ?? null,
        eventsPerSecond: rate(),
        progress: p,
        etaSeconds,
        kinds: [...byKind.values()].map((k) => kindView(k, at)),
        atMs: at,
      };
    },
  };
}

export type IndexerState = ReturnType<typeof createIndexerState>;
