// The soak's partner: `article.published` deliveries to the API's webhook at a fixed rate,
// alternating replicas (each forwards to the blog process, which writes through Payload to the
// blog's PostgreSQL database), one in ten a redelivery of an earlier delivery id, as a partner
// retrying after a lost answer does (its designed answer: 200 `duplicate`, nothing written).
import { articleDelivery } from '../../test/fixtures/blog-articles';
import type { HttpClient } from './http';

/** The partner's one address (the `contentpartner` bucket allows 600 a minute from it). */
const PARTNER_IP = '10.1.0.1';
const REDELIVERY_SHARE = 0.1;

export interface Publisher {
  start(perSecond: number): void;
  /** Deliveries answered `created` so far (each is one post). */
  created(): number;
  /** Redeliveries answered otherwise than `duplicate` (a post written twice): the goal is none. */
  anomalies(): string[];
  stop(): void;
}

/** A new article, published now (a partner's articles each carry their own time; the fixture's is fixed). */
function fresh(i: number): { id: string; body: Record<string, unknown> } {
  const id = `soak-${Date.now()}-${i}`;
  const body = articleDelivery(id, `soak-guide-${i}`, i);
  return { id, body: { ...body, article: { ...(body.article as object), published_at: new Date().toISOString() } } };
}

export function startPublisher(http: HttpClient, secret: string): Publisher {
  const sent: Array<{ id: string; body: Record<string, unknown> }> = [];
  let timer: NodeJS.Timeout | undefined;
  let created = 0;
  const anomalies: string[] = [];
  let n = 0;
  const publish = async () => {
    const i = n++;
    const redeliver = sent.length > 0 && Math.random() < REDELIVERY_SHARE;
    const { id, body } = redeliver ? sent[Math.floor(Math.random() * sent.length)]! : fresh(i);
    const answer = await http.call(redeliver ? 'webhook.redeliver' : 'webhook.publish', i % http.replicas, {
      method: 'POST',
      path: '/api/blog/webhooks/contentpartner',
      ip: PARTNER_IP,
      token: secret,
      json: body,
    });
    const result = (answer.body as { result?: string } | null)?.result;
    if (redeliver && answer.outcome === 'ok' && result !== 'duplicate') anomalies.push(`${id}: ${result}`);
    if (!redeliver && answer.outcome === 'ok') {
      sent.push({ id, body });
      if (result === 'created') created++;
    }
  };
  return {
    start(perSecond) {
      timer = setInterval(() => void publish(), 1000 / perSecond);
    },
    created: () => created,
    anomalies: () => [...anomalies],
    stop: () => clearInterval(timer),
  };
}
