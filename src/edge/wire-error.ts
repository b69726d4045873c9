import { databaseUnavailable } from '../db/errors';
import { isAppError, type AppError, type ErrorCode } from '../errors';

/** A refusal or failure as every transport sends it: REST `{ error }`, GraphQL `extensions`, Socket.IO acks. */
export interface WireError {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export interface WireAnswer {
  error: WireError;
  /** The code's HTTP status. */
  status: number;
  /** `Retry-After` in seconds: the refusal's `details.retryAfterSeconds`, when it says when to retry. */
  retryAfterSeconds?: number;
  /** Not one of our errors (a bug): log it; nothing of it went on the wire. */
  unexpected: boolean;
}

export const INTERNAL_MESSAGE = 'Internal server error';

/**
 * The one mapper from anything thrown to what a client sees. Our errors (`AppError`, or what the
 * transport's `recognise` turns into one) keep their code, message and details; a database that
 * cannot be reached or did not answer (src/db/errors.ts), however wrapped, is `SERVICE_UNAVAILABLE`
 * with a retry time; `INTERNAL` and anything else answer `INTERNAL` with a fixed message. Only
 * code, message and details are ever sent: never a cause, a stack or the message of an error we
 * did not write for clients.
 */
export function toWireError(err: unknown, recognise?: (err: unknown) => AppError | undefined): WireAnswer {
  const own = isAppError(err) ? err : recognise?.(err);
  // An INTERNAL wrapping a database outage is the outage, not our bug.
  const known = own && own.code !== 'INTERNAL' ? own : (databaseUnavailable(own ? own.cause : err) ?? own);
  if (!known || known.code === 'INTERNAL') return { error: { code: 'INTERNAL', message: INTERNAL_MESSAGE }, status: 500, unexpected: !known };
  const retryAfter = known.details?.retryAfterSeconds;
  return {
    error: { code: known.code, message: known.message, ...(known.details ? { details: known.details } : {}) },
    status: known.status,
    ...(typeof retryAfter === 'number' && retryAfter > 0 ? { retryAfterSeconds: Math.ceil(retryAfter) } : {}),
    unexpected: false,
  };
}
