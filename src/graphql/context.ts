import type { AccessClaims } from '../services/auth';
import type { Services } from '../services';

export interface GraphqlContext {
  requestId: string;
  ip: string;
  auth: AccessClaims | null;
  /** The caller presented the operator token (services/auth/operator-token.ts), on either transport. */
  operator?: boolean;
  services: Services;
  transport: 'http' | 'ws';
  /** The websocket connection an operation runs on (graphql-ws): presence is per connection. */
  connectionId?: string;
  /** Aborted when the request ends unanswered (time budget over, or client gone): database work in flight is cancelled. */
  signal?: AbortSignal;
}

/** The one context builder: both transports pass what they verified about the caller. */
export const contextBuilder =
  (services: Services) =>
  (caller: Omit<GraphqlContext, 'services'>): GraphqlContext => ({ ...caller, services });
