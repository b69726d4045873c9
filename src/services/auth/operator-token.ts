import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Who is the operator, on every transport (read by src/edge/caller.ts; the access rule is
 * src/edge/authorize.ts): the caller presenting `Authorization: Bearer <OPERATOR_TOKEN>`.
 * Unset OPERATOR_TOKEN: nobody is.
 */
export interface OperatorTokenCheck {
  /** True when `authorization` is `Bearer <OPERATOR_TOKEN>` (constant-time compare). */
  isOperator(authorization: unknown): boolean;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

export function createOperatorTokenCheck(operatorToken: string | undefined): OperatorTokenCheck {
  const expected = operatorToken ? digest(operatorToken) : null;
  const isOperator = (authorization: unknown): boolean => {
    const token = typeof authorization === 'string' ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
    // Digests have one length, so the compare takes the same time whatever was sent.
    return Boolean(expected && token && timingSafeEqual(digest(token), expected));
  };
  return { isOperator };
}
