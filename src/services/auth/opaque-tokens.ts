import { createHash, randomBytes } from 'node:crypto';

/** A bearer secret handed to a client once (refresh token, email link): 32 random bytes, base64url. */
export const newOpaqueToken = (prefix = ''): string => prefix + randomBytes(32).toString('base64url');

/** What is stored instead of such a token: its SHA-256, hex. */
export const hashOpaqueToken = (token: string): string => createHash('sha256').update(token).digest('hex');
