export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * One stop request often arrives twice: Ctrl-C signals the terminal's whole foreground group and
 * `npm` forwards its own copy to the script, systemd (KillMode=control-group) signals every process
 * of the unit at once. Another stop signal within this window is that same request, not an
 * operator asking to skip the drain.
 */
export const REPEATED_SIGNAL_WINDOW_MS = 1000;

/**
 * Calls `stop` on the first SIGINT/SIGTERM and `force` on a later one (after the window). `on`,
 * not `once`: a library that re-raises a signal it caught must still find us listening, not the
 * default action (exit 143 mid-shutdown).
 */
export function onStopSignals(handlers: { stop: (signal: StopSignal) => void; force: (signal: StopSignal) => void }): void {
  let firstAt: number | null = null;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (firstAt === null) {
        firstAt = Date.now();
        return handlers.stop(signal);
      }
      if (Date.now() - firstAt >= REPEATED_SIGNAL_WINDOW_MS) handlers.force(signal);
    });
  }
}
