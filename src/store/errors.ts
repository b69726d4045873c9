/** Redis replies that mean "this server cannot serve now"; any other reply is a bug to surface. */
const UNAVAILABLE_REPLY = /^(LOADING|READONLY|MASTERDOWN|BUSY|TRYAGAIN|CLUSTERDOWN|NOREPLICAS|OOM)\b/;

/** Whether an error from a Redis call means Redis is unavailable (as opposed to a bug). */
export function isOutage(err: unknown): boolean {
  if (err instanceof RangeError) return false; // bad arguments, thrown before any I/O
  if (!(err instanceof Error) || err.name !== 'ReplyError') return true;
  return UNAVAILABLE_REPLY.test(err.message);
}
