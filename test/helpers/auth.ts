import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { Keypair } from '@mysten/sui/cryptography';

export interface LoggedIn {
  accessToken: string;
  refreshToken: string;
  address: string;
  keypair: Keypair;
}

/** A REST answer: the token body, a challenge, or the error shape, whichever the status says. */
export interface RestAnswer {
  status: number;
  body: {
    nonce?: string;
    message?: string;
    expiresAt?: string;
    accessToken?: string;
    refreshToken?: string;
    tokenType?: string;
    expiresIn?: number;
    address?: string;
    error?: { code: string; message: string; details?: Record<string, unknown> };
  } | null;
  text: string;
}

/** POSTs JSON to the API and returns status and parsed body. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RestAnswer> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

/** Signs a fresh challenge with `keypair` (a new Ed25519 key by default) and logs in over REST, as a wallet app would. */
export async function loginWithKeypair(apiUrl: string, keypair: Keypair = new Ed25519Keypair()): Promise<LoggedIn> {
  const address = keypair.toSuiAddress();
  const challenge = await postJson(`${apiUrl}/api/auth/challenge`, { address });
  if (challenge.status !== 200) throw new Error(`challenge failed: ${challenge.status} ${JSON.stringify(challenge.body)}`);
  const message = challenge.body!.message!;
  const { signature } = await keypair.signPersonalMessage(new TextEncoder().encode(message));
  const login = await postJson(`${apiUrl}/api/auth/login`, { address, message, signature });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { accessToken: login.body!.accessToken!, refreshToken: login.body!.refreshToken!, address, keypair };
}
