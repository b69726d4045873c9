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

/** Bytecode of a function not run for this long is dropped at the next full collection (recompiled if it runs again). */
export const BYTECODE_OLD_SECONDS = 30;

/**
 * Bytecode flushing by time instead of by count of full collections (V8 drops it after 6 by
 * default). An idle process makes few full collections, so the code that only ran while it started
 * (module bodies, route and schema registration) kept its bytecode for good; by time it goes once
 * it has not run for BYTECODE_OLD_SECONDS, and code that serves requests keeps running. About
 * 6 MiB of an idle API's heap (docs/performance.md, issue 47). Read at every full collection.
 */
export function flushIdleBytecode(seconds = BYTECODE_OLD_SECONDS): void {
  v8.setFlagsFromString('--flush-code-based-on-time');
  v8.setFlagsFromString(`--bytecode-old-time=${seconds}`);
}
