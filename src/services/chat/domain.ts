import { createChatPlatformRelay } from '../../providers/chat-platform';
import { defineDomain } from '../domain';
import { createChatRetention } from './retention';
import { createChatService } from './service';

export const chatDomain = defineDomain({
  name: 'chat',
  settings: ['social', 'chat'],
  needs: [],
  create: ({ config, db, store, bus, logger, now }) => {
    const { chatRelayWebhookUrl } = config.social;
    const relay = chatRelayWebhookUrl ? createChatPlatformRelay({ webhookUrl: chatRelayWebhookUrl, logger }) : null;
    return {
      chat: createChatService({ db, store, bus, logger, relay, limits: config.chat }),
      chatRetention: createChatRetention({ db, logger, retentionDays: config.chat.historyRetentionDays, now }),
    };
  },
});
