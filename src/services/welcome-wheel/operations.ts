import { z } from 'zod';
import { walletOf } from '../../edge/authorize';
import { operationsOver, type OperationSet } from '../operation';
import { wheelSpinModel, wheelTableModel } from './model';
import type { WelcomeWheelService } from './service';

type Svc = { welcomeWheel: WelcomeWheelService };
const operation = operationsOver<Svc>();
const TAG = 'welcome-wheel';

/** The welcome wheel (./service.ts): its table, the caller's spin and the one spin per wallet, on REST and GraphQL. */
export const welcomeWheelOperations: OperationSet<Svc> = {
  domain: 'welcome-wheel',
  components: [wheelSpinModel],
  operations: [
    operation({
      summary: 'The reward table: each segment as it pays (capped at maxReward) and its chance',
      kind: 'query',
      access: 'public',
      output: wheelTableModel,
      rest: { method: 'GET', path: '/welcome-wheel', operationId: 'welcomeWheelTable', tag: TAG },
      graphql: { field: 'welcomeWheel' },
      handle: ({ welcomeWheel }) => welcomeWheel.table(),
    }),
    operation({
      summary: "The caller's spin, or null before it spun (access token required)",
      kind: 'query',
      access: 'wallet',
      output: wheelSpinModel.nullable(),
      rest: { method: 'GET', path: '/welcome-wheel/me', operationId: 'welcomeWheelMine', tag: TAG, envelope: 'spin' },
      graphql: { field: 'myWelcomeWheelSpin' },
      handle: ({ welcomeWheel }, { caller }) => welcomeWheel.spinOf(walletOf(caller)),
    }),
    operation({
      summary: "Spin once per wallet; every later call answers the first spin's result unchanged",
      kind: 'mutation',
      access: 'wallet',
      // Nothing is read from it: the wallet comes from the access token.
      input: z.object({}).strict().describe('Empty (or no body)'),
      output: wheelSpinModel,
      rest: { method: 'POST', path: '/welcome-wheel/spin', operationId: 'welcomeWheelSpin', tag: TAG },
      graphql: { field: 'spinWelcomeWheel', spread: true },
      handle: ({ welcomeWheel }, { caller }) => welcomeWheel.spin(walletOf(caller)),
    }),
  ],
};
