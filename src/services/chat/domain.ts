import { createChatPlatformRelay } from '../../providers/chat-platform';
import { defineDomain } from '../domain';
import { operatorsDomain } from '../operators';
import { createChatModeration } from './moderation';
import { createChatRetention } from './retention';
import { createChatService } from './service';

export const chatDomain = defineDomain({
  name: 'chat',
  settings: ['social', 'chat'],
  needs: [operatorsDomain],
  create: ({ config, db, store, bus, logger, now }, { audit }) => {
    const { chatRelayWebhookUrl } = config.social;
    const relay = chatRelayWebhookUrl ? createChatPlatformRelay({ webhookUrl: chatRelayWebhookUrl, logger }) : null;
    const chatModeration = createChatModeration({ db, store, bus, logger, audit, limits: config.chat, now });
    return {
      chat: createChatService({ db, store, bus, logger, relay, limits: config.chat, bans: chatModeration }),
      /** Removed messages, bans (checked on every write, current on every replica within a second), reports. */
      chatModeration,
      chatRetention: createChatRetention({ db, logger, retentionDays: config.chat.historyRetentionDays, now }),
    };
  },
});
