import { createSignatureVerifier } from '../../providers/sui-signatures';
import { defineDomain } from '../domain';
import { createOperatorTokenCheck } from './operator-token';
import { createAuthService } from './service';
import { createTokenService } from './tokens';
import { createZkLoginService } from './zklogin';

export const authDomain = defineDomain({
  name: 'auth',
  settings: ['jwt', 'auth', 'chain', 'network', 'operatorToken'],
  needs: [],
  create: ({ config, db, store, logger, hooks, now }) => {
    const tokens = createTokenService({ secret: config.jwt.secret, issuer: config.jwt.issuer, accessTtlSeconds: config.auth.accessTtlSeconds });
    const signatures = createSignatureVerifier({ url: config.chain.suiUrl, transport: config.chain.transport, network: config.network });
    const zklogin = createZkLoginService({ db, config: config.auth.zkLogin, logger });
    return {
      tokens,
      zklogin,
      auth: createAuthService({ db, store, tokens, config: config.auth, signatures, logger, zkLogin: zklogin, hooks, now }),
      /** Who is the operator (OPERATOR_TOKEN), for every transport. */
      operatorToken: createOperatorTokenCheck(config.operatorToken),
    };
  },
});
