import type { AuthService } from '../services/auth';
import type { ChatRetention } from '../services/chat';
import type { PriceRetention } from '../services/prices';
import type { JobDefinition } from './runner';

// The purges keep their tables bounded (JOBS.PURGE_CRON, default hourly at :17); each is its own
// job, so its heartbeat and run log say what it removed.

/** Expired login challenges and refresh tokens, whatever their address. */
export function authPurgeJob(auth: Pick<AuthService, 'purgeExpired'>, cronExpression: string): JobDefinition {
  return { key: 'auth-purge', cron: cronExpression, run: async ({ signal }) => ({ ...(await auth.purgeExpired(signal)) }) };
}

/** Chat messages past CHAT.HISTORY_RETENTION_DAYS. */
export function chatPurgeJob(retention: ChatRetention, cronExpression: string): JobDefinition {
  return { key: 'chat-purge', cron: cronExpression, run: ({ signal }) => retention.purge(signal) };
}

/** Price snapshots past PRICES.SNAPSHOT_RETENTION_DAYS (each asset's newest kept). */
export function pricePurgeJob(retention: PriceRetention, cronExpression: string): JobDefinition {
  return { key: 'price-purge', cron: cronExpression, run: ({ signal }) => retention.purge(signal) };
}
