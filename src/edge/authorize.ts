import { AppError } from '../errors';
import type { Caller } from './caller';

/** What an operation, route or socket event needs of its caller: a verified wallet, or the operator token. */
export type Access = 'wallet' | 'operator';

const NEEDS: Record<Access, string> = {
  wallet: 'This needs an access token: Authorization: Bearer <token>',
  operator: 'This needs the operator token: Authorization: Bearer <OPERATOR_TOKEN>',
};

const holds = (caller: Caller, access: Access): boolean => (access === 'wallet' ? caller.auth !== null : caller.operator === true);
const refusal = (access: Access) => new AppError('UNAUTHENTICATED', NEEDS[access]);

/**
 * The one authorization rule of every transport (type-graphql's authChecker, REST route config,
 * Socket.IO events): the caller holding any of `accesses` passes, anyone else is UNAUTHENTICATED.
 */
export function authorize(caller: Caller, accesses: readonly Access[]): void {
  if (accesses.some((access) => holds(caller, access))) return;
  throw refusal(accesses[0] ?? 'wallet');
}

/** The wallet of a caller the rule admits as 'wallet' (handlers behind `wallet` access read it here). */
export function walletOf(caller: Caller): string {
  if (caller.auth) return caller.auth.wallet;
  throw refusal('wallet');
}
