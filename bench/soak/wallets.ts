// Wallet login as a wallet app does it: a challenge, the message signed with a real Ed25519 key
// (@mysten/sui's personal-message signature), the login, then a token refresh.
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { HttpClient } from './http';

export interface Wallet {
  address: string;
  accessToken: string;
  /** The forwarded address this wallet's requests come from. */
  ip: string;
}

/** Runs the three steps, each recorded as its own operation; null when a step did not answer 200. */
export async function loginFlow(http: HttpClient, replica: number, ip: string): Promise<Wallet | null> {
  const keypair = new Ed25519Keypair();
  const address = keypair.toSuiAddress();
  const challenge = await http.call('auth.challenge', replica, { method: 'POST', path: '/api/auth/challenge', ip, json: { address } });
  if (challenge.status !== 200) return null;
  const message = (challenge.body as { message: string }).message;
  const { signature } = await keypair.signPersonalMessage(new TextEncoder().encode(message));
  const login = await http.call('auth.login', replica, { method: 'POST', path: '/api/auth/login', ip, json: { address, message, signature } });
  if (login.status !== 200) return null;
  const tokens = login.body as { accessToken: string; refreshToken: string };
  const refreshed = await http.call('auth.refresh', replica, { method: 'POST', path: '/api/auth/refresh', ip, json: { refreshToken: tokens.refreshToken } });
  if (refreshed.status !== 200) return null;
  return { address, accessToken: (refreshed.body as { accessToken: string }).accessToken, ip };
}
