/**
 * Runs `fn` on request, never twice at once: requests made while it runs collapse into one
 * more run afterwards, so the last request is always followed by a complete run.
 */
export function coalesce(fn: () => Promise<void>, onError: (error: unknown) => void) {
  let running: Promise<void> | null = null;
  let pending = false;
  const loop = async () => {
    do {
      pending = false;
      try {
        await fn();
      } catch (error) {
        onError(error);
      }
    } while (pending);
    running = null;
  };
  return {
    request(): void {
      if (running) pending = true;
      else running = loop();
    },
    /** Resolves once no run is in flight or pending. */
    async flush(): Promise<void> {
      while (running) await running;
    },
  };
}
