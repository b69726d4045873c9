import type { AccessClaims } from '../services/tokens';
import type { Services } from '../services';

export interface GraphqlContext {
  requestId: string;
  ip: string;
  auth: AccessClaims | null;
  services: Services;
  transport: 'http' | 'ws';
}
