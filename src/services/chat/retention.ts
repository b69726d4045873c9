import type { Db } from '../../db/client';
import { purgeInBatches } from '../../db/purge';
import type { Logger } from '../../observability/logger';

export interface ChatRetention {
  /** Deletes messages older than CHAT.HISTORY_RETENTION_DAYS (their reactions go with them); returns how many. */
  purge(signal?: AbortSignal): Promise<{ messages: number; cutoff: string }>;
}

export function createChatRetention(deps: { db: Db; logger: Logger; retentionDays: number; now?: () => Date }): ChatRetention {
  const now = deps.now ?? (() => new Date());
  return {
    async purge(signal) {
      const cutoff = new Date(now().getTime() - deps.retentionDays * 86_400_000);
      const messages = await purgeInBatches(
        (limit) => deps.db.prisma.$executeRaw`DELETE FROM chat_message WHERE id IN (SELECT id FROM chat_message WHERE created_at < ${cutoff} LIMIT ${limit})`,
        signal,
      );
      if (messages > 0) deps.logger.info({ messages, cutoff }, 'chat history past its retention purged');
      return { messages, cutoff: cutoff.toISOString() };
    },
  };
}
