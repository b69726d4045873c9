import { defineDomain } from '../domain';
import { createAuditLog } from './audit';
import { createOperatorRoles } from './roles';

export const operatorsDomain = defineDomain({
  name: 'operators',
  settings: ['operatorWallets'],
  needs: [],
  create: ({ config, db, bus, logger }) => {
    const audit = createAuditLog({ db });
    return {
      /** Every operator action, appended in the transaction that makes it. */
      audit,
      /** Which wallets are operators (OPERATOR_WALLETS and grants), checked on every request. */
      operators: createOperatorRoles({ db, bus, logger, audit, settingWallets: config.operatorWallets }),
    };
  },
});
