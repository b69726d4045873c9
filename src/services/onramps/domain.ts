import { createOnrampAProvider } from '../../providers/onramp-a';
import { createOnrampBProvider } from '../../providers/onramp-b';
import { defineDomain } from '../domain';
import { createOnrampsService } from './service';

export const onrampsDomain = defineDomain({
  name: 'onramps',
  settings: ['onramps'],
  needs: [],
  create: ({ config, store, logger }) => {
    const { a, b } = config.onramps;
    return {
      onramps: createOnrampsService({
        a: a ? { widgetUrl: a.widgetUrl, apiKey: a.apiKey, provider: createOnrampAProvider({ secretKey: a.secretKey }) } : undefined,
        b: b ? { provider: createOnrampBProvider({ ...b, logger }) } : undefined,
        store,
      }),
    };
  },
});
