import { Authorized as TypeGraphqlAuthorized, type AuthCheckerFn } from 'type-graphql';
import { createAccessRule, type Access, type OperatorRoleCheck } from '../edge/authorize';
import type { GraphqlContext } from './context';

/**
 * type-graphql's authChecker: the edge's rule, which throws its own UNAUTHENTICATED or FORBIDDEN
 * (type-graphql's "Access denied" errors never reach a client). `@Authorized` adds nothing to the SDL.
 */
export function createAuthChecker(roles?: OperatorRoleCheck): AuthCheckerFn<GraphqlContext, Access> {
  const rule = createAccessRule(roles);
  return ({ context }, accesses) => {
    rule.authorize(context, accesses);
    return true;
  };
}

/** `@Authorized('wallet')` / `@Authorized('operator')`: who may run the operation (resolvers read the wallet with `walletOf(ctx)`). */
export const Authorized = (access: Access, ...more: Access[]) => TypeGraphqlAuthorized<Access>(access, ...more);
