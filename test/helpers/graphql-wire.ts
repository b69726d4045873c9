import WebSocket from 'ws';

export interface WireResult {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** POSTs a raw body (a string is sent as is) to /graphql. */
export async function postGraphql(url: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<WireResult> {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON: kept as text */
  }
  return { status: res.status, body: parsed };
}

/** The error codes of a GraphQL or REST error body. */
export function codesOf(body: unknown): string[] {
  const b = body as { errors?: Array<{ extensions?: { code?: string } }>; error?: { code?: string } } | null;
  if (b?.errors) return b.errors.map((e) => e.extensions?.code ?? '(none)');
  if (b?.error?.code) return [b.error.code];
  return [];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type WsOutcome = { errors: any[] } | { result: any } | { closed: { code: number; reason: string } };

/**
 * A graphql-transport-ws connection spoken at the message level, so protocol-level refusals
 * (close codes) and operation errors (`error` messages) are both visible.
 */
export async function openGraphqlWs(wsUrl: string, connectionParams?: Record<string, unknown>) {
  const ws = new WebSocket(wsUrl, 'graphql-transport-ws');
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let closedWith: { code: number; reason: string } | undefined;
  const closeWaiters: Array<() => void> = [];
  ws.on('close', (code, reason) => {
    closedWith = { code, reason: String(reason) };
    closeWaiters.splice(0).forEach((w) => w());
  });
  const acked = new Promise<boolean>((resolve) => {
    ws.once('message', (m) => resolve(JSON.parse(String(m)).type === 'connection_ack'));
    closeWaiters.push(() => resolve(false));
  });
  ws.send(JSON.stringify({ type: 'connection_init', payload: connectionParams }));
  const ack = await acked;
  let nextId = 0;
  return {
    ws,
    acknowledged: ack,
    get closed() {
      return closedWith;
    },
    /** Sends one raw frame and waits for the reply to `id` (or the close). */
    exchange(frame: string, id: string): Promise<WsOutcome> {
      return new Promise((resolve) => {
        if (closedWith) return resolve({ closed: closedWith });
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        let last: any;
        const onMessage = (m: WebSocket.RawData) => {
          const msg = JSON.parse(String(m));
          if (msg.id !== id) return;
          if (msg.type === 'next') last = msg.payload;
          if (msg.type === 'error' || msg.type === 'complete') {
            ws.off('message', onMessage);
            resolve(msg.type === 'error' ? { errors: msg.payload } : last?.errors ? { errors: last.errors } : { result: last });
          }
        };
        ws.on('message', onMessage);
        closeWaiters.push(() => resolve({ closed: closedWith! }));
        ws.send(frame);
      });
    },
    /** Runs one operation (a `subscribe` message) and waits for its result or error. */
    run(payload: Record<string, unknown>): Promise<WsOutcome> {
      const id = String(++nextId);
      return this.exchange(JSON.stringify({ id, type: 'subscribe', payload }), id);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (closedWith) return resolve();
        closeWaiters.push(() => resolve());
        ws.close(1000);
      }),
  };
}

export const wsCodes = (outcome: WsOutcome): string[] => ('errors' in outcome ? outcome.errors.map((e) => e.extensions?.code ?? '(none)') : []);
