// The example page: everything it does with the API goes through @platform/client. The Ed25519 keypair made here
// stands in for a wallet (a Wallet Standard wallet signs the same way: walletStandardSigner(wallet, account)).
// URL parameters: ?transport=graphql-ws|socket.io&room=game:example
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { ActivityDocument, createClient, QuestCampaignsDocument, QuestStatusesDocument, type ChatMessage, type Client } from '@platform/client';

const params = new URLSearchParams(location.search);
const transport = params.get('transport') === 'socket.io' ? 'socket.io' : 'graphql-ws';
const room = params.get('room') ?? 'game:example';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const item = (text: string, attrs: Record<string, string> = {}) => {
  const li = document.createElement('li');
  li.textContent = text;
  for (const [k, v] of Object.entries(attrs)) li.setAttribute(k, v);
  return li;
};
const showError = (err: unknown) => {
  const box = $('errors');
  box.hidden = false;
  box.textContent = `${box.textContent ?? ''}${err instanceof Error ? `${(err as { code?: string }).code ?? err.name}: ${err.message}` : String(err)}\n`;
};

async function showQuests(client: Client) {
  const [{ questCampaigns }, { questStatuses }] = await Promise.all([client.query(QuestCampaignsDocument), client.query(QuestStatusesDocument)]);
  const list = $('quests');
  list.replaceChildren();
  for (const campaign of questCampaigns) {
    for (const quest of campaign.quests) {
      const status = questStatuses.find((s) => s.campaignSlug === campaign.slug && s.questKey === quest.key);
      const li = item(`${quest.title} `, { 'data-quest': `${campaign.slug}/${quest.key}` });
      const bar = document.createElement('progress');
      bar.max = Number(quest.target);
      bar.value = Number(status?.progress ?? 0);
      li.append(bar, ` ${status?.progress ?? 0}/${quest.target}${status?.completed ? ' ✓' : ''}`);
      list.append(li);
    }
  }
  if (!list.children.length) list.append(item('No quests running'));
}

async function main() {
  const client = createClient({ url: location.origin });
  const keypair = new Ed25519Keypair();
  const session = await client.auth.login(keypair);
  $('address').textContent = session.address;
  $('transport').textContent = transport;

  await showQuests(client);

  client.subscribe(ActivityDocument, {}, {
    next: ({ activity }) => $('activity').prepend(item(`${activity.summary} (${activity.kind})`)),
    error: showError,
  });

  const chat = await client.chat({ transport });
  const shown = new Set<string>();
  const show = (m: ChatMessage) => {
    if (shown.has(m.id)) return;
    shown.add(m.id);
    $('messages').append(item(`${m.author.slice(0, 8)}…: ${m.text}`, { 'data-id': m.id }));
  };
  await chat.join(room, {
    message: show,
    presence: (p) => ($('presence').textContent = `${p.online} here`),
    error: showError,
  });

  $('send').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $<HTMLInputElement>('text');
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    chat.send(room, text).then(show, showError);
  });

  // what a test (or a curious reader in the console) can call
  Object.assign(window, { example: { client, chat, refreshQuests: () => showQuests(client) } });
  document.body.dataset.ready = 'true';
}

main().catch(showError);
