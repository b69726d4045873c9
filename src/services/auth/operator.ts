import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors';

/**
 * The one operator policy of every transport (REST operator routes, GraphQL over HTTP and
 * websocket): the caller is the operator when it presents `Authorization: Bearer <OPERATOR_TOKEN>`.
 * Unset OPERATOR_TOKEN: nobody is.
 */
export interface OperatorPolicy {
  /** True when `authorization` is `Bearer <OPERATOR_TOKEN>` (constant-time compare). */
  isOperator(authorization: unknown): boolean;
  /** UNAUTHENTICATED unless isOperator(authorization). */
  requireOperator(authorization: unknown): void;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

export function createOperatorPolicy(operatorToken: string | undefined): OperatorPolicy {
  const expected = operatorToken ? digest(operatorToken) : null;
  const isOperator = (authorization: unknown): boolean => {
    const token = typeof authorization === 'string' ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
    // Digests have one length, so the compare takes the same time whatever was sent.
    return Boolean(expected && token && timingSafeEqual(digest(token), expected));
  };
  return {
    isOperator,
    requireOperator(authorization) {
      if (!isOperator(authorization)) throw new AppError('UNAUTHENTICATED', 'This needs the operator token: Authorization: Bearer <OPERATOR_TOKEN>');
    },
  };
}
