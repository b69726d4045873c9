import { operationsOver, type OperationSet } from '../operation';
import { giftDeliveryModel, giftRemainingModel } from './model';
import { giftQuery, type GiftService } from './service';

type Svc = { gifts: GiftService };
const operation = operationsOver<Svc>();
const TAG = 'gifts';
/** Both answers depend on the moment and the caller's IP: never kept by a cache. */
const NO_STORE = { 'cache-control': 'no-store' } as const;

/** Gift URLs from the stash (./service.ts), for players: `/api/gift/*` and the GraphQL fields are read from these. */
export const giftPlayerOperations: OperationSet<Svc> = {
  domain: 'gifts-player',
  operations: [
    operation({
      summary: "One gift URL of the project, within its delivery window and under the project's and the IP's daily quotas",
      description:
        'The client IP is checked with the anti-proxy service first (a proxy/VPN verdict answers 403 PROXY_DETECTED; when the service fails or takes over 1.5 s the gift is served without it). Spent quotas answer 429 GIFT_QUOTA_EXCEEDED (`details.scope`: project or ip); no open window or an empty stash 409 GIFT_UNAVAILABLE (`details.reason`). Counters reset nightly (JOBS.GIFT_RESET_CRON).',
      kind: 'mutation',
      access: 'public',
      input: giftQuery,
      output: giftDeliveryModel,
      errors: ['VALIDATION_FAILED', 'PROXY_DETECTED', 'GIFT_UNAVAILABLE', 'GIFT_QUOTA_EXCEEDED'],
      rest: { method: 'GET', path: '/gift/get', operationId: 'giftGet', tag: TAG, query: true, headers: NO_STORE },
      graphql: { field: 'claimGift', spread: true },
      handle: ({ gifts }, { input, ip, caller }) => gifts.claim(input, { ip, wallet: caller.auth?.wallet ?? null }),
    }),
    operation({
      summary: "Today's remaining gifts of the project and of the calling IP",
      kind: 'query',
      access: 'public',
      input: giftQuery,
      output: giftRemainingModel,
      errors: ['VALIDATION_FAILED'],
      rest: { method: 'GET', path: '/gift/remaining', operationId: 'giftRemaining', tag: TAG, query: true, headers: NO_STORE },
      graphql: { field: 'giftRemaining', spread: true },
      handle: ({ gifts }, { input, ip, caller }) => gifts.remaining(input, { ip, wallet: caller.auth?.wallet ?? null }),
    }),
  ],
};
