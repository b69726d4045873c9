import { AppError } from '../errors';

/**
 * Who is calling, as every transport sees it: the verified claims of an access token (a wallet),
 * or the operator (`Bearer <OPERATOR_TOKEN>`), or neither (anonymous). HTTP requests, the
 * graphql-ws connection and Socket.IO sockets carry the same shape, so one rule authorizes all.
 */
export interface Caller {
  auth: CallerClaims | null;
  operator?: boolean;
}

export interface CallerClaims {
  wallet: string;
}

/** The access-token check of services/auth (its TokenService fits), named here so the edge needs no service. */
export interface AccessTokenCheck {
  checkAccess(token: string): { ok: true; claims: CallerClaims } | { ok: false; reason: 'expired' | 'invalid' };
}

/** The operator-token check of services/auth (its OperatorTokenCheck fits). */
export interface OperatorTokenCheck {
  isOperator(authorization: unknown): boolean;
}

const MALFORMED = 'Authorization must be "Bearer <access token>"';

/**
 * The one reading of a presented credential, for the HTTP `Authorization` header, graphql-ws
 * `connectionParams.authorization` and the Socket.IO handshake's `auth.token`. Nothing presented
 * is anonymous; the operator token makes the operator; anything else must be a valid access token,
 * else it is refused with TOKEN_EXPIRED or TOKEN_INVALID (never silently served as anonymous).
 */
export function createCallerReader(tokens: AccessTokenCheck, operatorToken?: OperatorTokenCheck) {
  return function readCaller(authorization: unknown): Caller {
    if (authorization === undefined || authorization === null || authorization === '') return { auth: null, operator: false };
    if (operatorToken?.isOperator(authorization)) return { auth: null, operator: true };
    if (typeof authorization !== 'string') throw new AppError('TOKEN_INVALID', MALFORMED);
    const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    if (!token) throw new AppError('TOKEN_INVALID', MALFORMED);
    const result = tokens.checkAccess(token);
    if (result.ok) return { auth: result.claims, operator: false };
    throw result.reason === 'expired'
      ? new AppError('TOKEN_EXPIRED', 'The access token has expired; refresh it')
      : new AppError('TOKEN_INVALID', 'The access token is not valid');
  };
}

export type CallerReader = ReturnType<typeof createCallerReader>;

/** graphql-ws `connectionParams`: the `authorization` (or `Authorization`) entry, as on HTTP. */
export const connectionParamsAuthorization = (params: Record<string, unknown> | undefined): unknown => params?.authorization ?? params?.Authorization;

/** Socket.IO `auth.token`: a raw access token or `Bearer <token>`, read as the `Authorization` value it stands for. */
export function handshakeAuthorization(auth: Record<string, unknown> | undefined): unknown {
  const token = auth?.token;
  return typeof token === 'string' && token !== '' && !/^Bearer\s/i.test(token) ? `Bearer ${token}` : token;
}
