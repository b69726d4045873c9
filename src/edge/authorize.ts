import { AppError } from '../errors';
import type { Caller } from './caller';

/** What an operation, route or socket event needs of its caller: a verified wallet, or an operator (a wallet holding the role, or the operator token). */
export type Access = 'wallet' | 'operator';

/** The operator role of wallets (services/operators fits): read on every request, kept current in memory. */
export interface OperatorRoleCheck {
  isOperator(wallet: string): boolean;
}

/** Who acted, for the operators' audit log: the operator's wallet, or automation holding OPERATOR_TOKEN. */
export type Actor = { wallet: string } | { token: true };

const NEEDS: Record<Access, string> = {
  wallet: 'This needs an access token: Authorization: Bearer <token>',
  operator: 'This needs an operator: the access token of an operator wallet, or Authorization: Bearer <OPERATOR_TOKEN>',
};

const NO_ROLES: OperatorRoleCheck = { isOperator: () => false };

/**
 * The one authorization rule of every transport (type-graphql's authChecker, REST route config,
 * Socket.IO events): the caller holding any of `accesses` passes. Nobody identified is
 * UNAUTHENTICATED (401); a wallet without the operator role is FORBIDDEN (403). The role is read
 * at each call, so a revoked operator is refused on its next request, whatever its token says.
 */
export function createAccessRule(roles: OperatorRoleCheck = NO_ROLES) {
  const isOperator = (caller: Caller): boolean => caller.operator === true || (caller.auth !== null && roles.isOperator(caller.auth.wallet));
  const holds = (caller: Caller, access: Access): boolean => (access === 'wallet' ? caller.auth !== null : isOperator(caller));

  return {
    authorize(caller: Caller, accesses: readonly Access[]): void {
      if (accesses.some((access) => holds(caller, access))) return;
      const first = accesses[0] ?? 'wallet';
      if (first === 'operator' && caller.auth !== null) throw new AppError('FORBIDDEN', 'This needs the operator role, which this wallet does not hold');
      throw new AppError('UNAUTHENTICATED', NEEDS[first]);
    },
  };
}

export type AccessRule = ReturnType<typeof createAccessRule>;

/** The operator behind a call the rule admitted as 'operator': its wallet when it came with one, else the operator token. */
export function operatorActor(caller: Caller): Actor {
  if (caller.auth !== null) return { wallet: caller.auth.wallet };
  if (caller.operator === true) return { token: true };
  throw new AppError('UNAUTHENTICATED', NEEDS.operator);
}

/** The wallet of a caller the rule admits as 'wallet' (handlers behind `wallet` access read it here). */
export function walletOf(caller: Caller): string {
  if (caller.auth) return caller.auth.wallet;
  throw new AppError('UNAUTHENTICATED', NEEDS.wallet);
}
