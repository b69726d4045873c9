// The client package in Node, as a frontend or a bot uses it: wallet login, quests with progress, the activity
// feed, chat between a graphql-ws and a Socket.IO client, a refresh and a logout. It imports only
// @platform/client and @mysten/sui; test/client/client-tarball.test.ts installs the packed package in an
// empty project and runs this file there (`API_URL=… node flow.ts`, Node 22.18+ strips the types).
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { ActivityDocument, createClient, isPlatformError, LeaderboardDocument, MeDocument, QuestCampaignsDocument, QuestStatusesDocument, type Activity, type ChatMessage } from '@platform/client';

const url = process.env.API_URL ?? 'http://localhost:3000';
const say = (step: string, data: Record<string, unknown> = {}) => console.log(JSON.stringify({ step, ...data }));

const alice = createClient({ url });
const bob = createClient({ url });
const aliceKey = new Ed25519Keypair();
await alice.auth.login(aliceKey);
await bob.auth.login(new Ed25519Keypair());
const { me } = await alice.query(MeDocument);
say('logged-in', { address: me.walletAddress, expected: aliceKey.toSuiAddress() });

// @ts-expect-error the documents are typed: `limit` is a number (a package whose types did not resolve would make this line an error)
await alice.query(LeaderboardDocument, { board: 'XP', limit: 'ten' }).catch(() => undefined);

const { questCampaigns } = await alice.query(QuestCampaignsDocument);
const { questStatuses } = await alice.query(QuestStatusesDocument);
const progress: Array<{ quest: string; progress: string; target: string }> = questStatuses.map((s) => ({ quest: `${s.campaignSlug}/${s.questKey}`, progress: s.progress, target: s.target }));
say('quests', { campaigns: questCampaigns.length, progress });

const activity = new Promise<Activity>((resolve, reject) => {
  const stop = alice.subscribe(ActivityDocument, {}, {
    next: ({ activity }) => {
      stop();
      resolve(activity);
    },
    error: reject,
  });
});
say('activity-subscribed');
say('activity', { summary: (await activity).summary });

const room = 'game:node-proof';
const overWs = await alice.chat({ transport: 'graphql-ws' });
const overSio = await bob.chat({ transport: 'socket.io' });
const arrived = (chat: typeof overWs, sender: string) =>
  new Promise<ChatMessage>((resolve) => {
    void chat.join(room, {
      message: (m) => {
        if (m.author === sender) resolve(m);
      },
    });
  });
const bobAddress = (await bob.auth.session())!.address;
const aliceHears = arrived(overWs, bobAddress);
// Bob's socket hears presence: once it counts two, Alice's subscription is live
const bothIn = new Promise<void>((resolve) => {
  void overSio.join(room, {
    presence: (p) => p.online >= 2 && resolve(),
    message: () => undefined,
  });
});
await bothIn;
const bobHears = arrived(overSio, me.walletAddress);
const fromBob = await overSio.send(room, 'hello from socket.io');
const fromAlice = await overWs.send(room, 'hello from graphql-ws');
const [heardByAlice, heardByBob] = await Promise.all([aliceHears, bobHears]);
say('chat', { aliceHeardBob: heardByAlice.id === fromBob.id, bobHeardAlice: heardByBob.id === fromAlice.id });

const rotated = await alice.auth.refresh();
say('refreshed', { rotated: typeof rotated.refreshToken === 'string' });
await alice.auth.logout();
const afterLogout = await alice.query(MeDocument).catch((err: unknown) => err);
say('logged-out', { code: isPlatformError(afterLogout) ? afterLogout.code : null });

await Promise.all([overWs.close(), overSio.close(), alice.close(), bob.close()]);
say('done');
