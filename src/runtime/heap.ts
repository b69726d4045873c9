import v8 from 'node:v8';

/**
 * After each full collection V8 lets the old generation grow to (1 + this / 100) × what survived
 * before collecting again. Its own factor (up to 4× on a busy server) let the API's old
 * generation swing to several times its ~110 MiB live heap under load, because every request
 * promotes some short-lived objects (docs/performance.md, "What changed on 2026-11-26"); 1.5×
 * holds the footprint near the live heap at the cost of more frequent (mostly concurrent) full
 * collections.
 */
export const HEAP_GROWING_PERCENT = 50;

/** Applies HEAP_GROWING_PERCENT to this process (V8 reads it at every full collection). */
export function limitHeapGrowth(percent = HEAP_GROWING_PERCENT): void {
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * WebAssembly compiled by the baseline compiler (Liftoff) only, never tiered up by TurboFan.
 * Prisma's query compiler is WebAssembly; tiering it up in the background costs 50–90 MiB of
 * native memory that is never returned, and buys no measurable query speed once its plans are
 * warm (6,000 Prisma reads at 50 concurrent: 2.1–2.4 s either way), so every role takes the
 * baseline code (docs/decisions.md: idle jobs and indexer footprint; the API's, issue 27).
 * Must run before the first WebAssembly module is compiled.
 */
export function compileWasmBaselineOnly(): void {
  v8.setFlagsFromString('--liftoff-only');
}
