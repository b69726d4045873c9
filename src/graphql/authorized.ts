import { Authorized as TypeGraphqlAuthorized, type AuthCheckerFn } from 'type-graphql';
import { authorize, type Access } from '../edge/authorize';
import type { GraphqlContext } from './context';

/**
 * type-graphql's authChecker: the edge's rule, which throws its own UNAUTHENTICATED (type-graphql's
 * "Access denied" errors never reach a client). `@Authorized` adds nothing to the SDL.
 */
export const authChecker: AuthCheckerFn<GraphqlContext, Access> = ({ context }, accesses) => {
  authorize(context, accesses);
  return true;
};

/** `@Authorized('wallet')` / `@Authorized('operator')`: who may run the operation (resolvers read the wallet with `walletOf(ctx)`). */
export const Authorized = (access: Access, ...more: Access[]) => TypeGraphqlAuthorized<Access>(access, ...more);
