import { Authorized as TypeGraphqlAuthorized, Extensions, type AuthCheckerFn } from 'type-graphql';
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

/**
 * `@Authorized('wallet')` / `@Authorized('operator')`: who may run the operation (resolvers read the wallet with `walletOf(ctx)`).
 * The accesses are also the field's `extensions.access` in the built schema (not in the SDL), so whoever walks the schema knows them.
 */
export const Authorized = (access: Access, ...more: Access[]): MethodDecorator => {
  const authorized = TypeGraphqlAuthorized<Access>(access, ...more);
  const extensions = Extensions({ access: [access, ...more] });
  return (target, key, descriptor) => {
    authorized(target, key, descriptor);
    extensions(target, key, descriptor);
  };
};

/** The accesses `@Authorized` gave a schema field (empty: public). */
export const accessOf = (field: { extensions?: Readonly<Record<string, unknown>> | null }): readonly Access[] => (field.extensions?.access as Access[] | undefined) ?? [];
