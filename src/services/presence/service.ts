import { renewMembers, type Bus, type SharedStore } from '../../store';
import type { Logger } from '../../observability/logger';
import { roomChannel, type PresenceView } from '../chat';

/**
 * How long a connection's presence outlives its last heartbeat: a replica killed without a
 * goodbye drops out of every count within this, plus one sweep.
 */
export const PRESENCE_LEASE_MS = 15_000;
export const PRESENCE_HEARTBEAT_MS = 5_000;
/** Rooms with local members are recounted this often (catches other replicas' crashes and total changes). */
const SWEEP_MS = 2_500;
/** Joins and leaves in a room within this are counted and broadcast once. */
const RECOUNT_DEBOUNCE_MS = 100;
/** Presence reads are served from a count this fresh. */
const COUNT_CACHE_MS = 250;
/**
 * A large room is recounted (and its count broadcast) at most once per this many ms per local member,
 * and at least every RECOUNT_MAX_MS: a recount reads every member of the room and of the total, and a
 * broadcast writes a frame to every socket in the room on every replica, so at 1,000 joins a second a
 * 25,000-member room recounted every 100 ms keeps the processes busy writing counts. Rooms under 100
 * local members keep the 100 ms debounce. A count broadcast by another replica counts as a recount.
 */
const RECOUNT_MS_PER_MEMBER = 1;
const RECOUNT_MAX_MS = 10_000;
const ALL = 'presence:all';
const roomKey = (room: string) => `presence:room:${room}`;

export interface PresenceService {
  /** A gateway connection opened (`wallet` null: anonymous). */
  connect(connId: string, wallet: string | null): Promise<void>;
  /** The connection closed: it leaves every room and the total. */
  disconnect(connId: string): Promise<void>;
  /** The connection entered a room (counted; entering twice needs leaving twice). */
  join(connId: string, room: string): Promise<void>;
  leave(connId: string, room: string): Promise<void>;
  /** Distinct users in the room and in total, across replicas. */
  counts(room: string): Promise<PresenceView>;
  close(): Promise<void>;
}

export interface PresenceDeps {
  store: SharedStore;
  bus: Bus;
  logger: Logger;
  leaseMs?: number;
  heartbeatMs?: number;
  sweepMs?: number;
}

interface Connection {
  member: string;
  rooms: Map<string, number>;
}

/**
 * Presence as leases in the shared store: one member per (connection, room) and per connection in
 * the total, each with its own expiry, refreshed by this process's heartbeat. Counts are distinct
 * users (a wallet with two tabs counts once); they are cached briefly, recounted once per burst of
 * joins and leaves, and broadcast on the room's channel only when they change.
 */
export function createPresenceService(deps: PresenceDeps): PresenceService {
  const { store, bus, logger } = deps;
  const leaseMs = deps.leaseMs ?? PRESENCE_LEASE_MS;
  const connections = new Map<string, Connection>();
  /** Local members per room, with the room channel's listener (to learn counts other replicas broadcast). */
  const rooms = new Map<string, { members: number; unlisten: Promise<() => Promise<void>> }>();
  const lastBroadcast = new Map<string, string>();
  const cache = new Map<string, { view: PresenceView; at: number }>();
  const pending = new Map<string, NodeJS.Timeout>();
  const lastRecount = new Map<string, number>();
  let closed = false;
  /** How long a room's count stays good enough: longer for rooms with more local members. */
  const recountEvery = (room: string) => Math.min(RECOUNT_MAX_MS, (rooms.get(room)?.members ?? 0) * RECOUNT_MS_PER_MEMBER);

  const distinctUsers = (members: string[]) => new Set(members.map((m) => m.slice(0, m.lastIndexOf('|')))).size;

  async function recount(room: string): Promise<PresenceView> {
    const [inRoom, all] = await Promise.all([store.members(roomKey(room)), store.members(ALL)]);
    const view = { room, online: distinctUsers(inRoom), total: distinctUsers(all) };
    cache.set(room, { view, at: Date.now() });
    return view;
  }

  async function broadcastIfChanged(room: string): Promise<void> {
    lastRecount.set(room, Date.now());
    const view = await recount(room);
    const key = `${view.online}/${view.total}`;
    if (lastBroadcast.get(room) === key) return;
    lastBroadcast.set(room, key);
    await bus.publish(roomChannel(room), { type: 'presence', presence: view });
  }

  function scheduleRecount(room: string): void {
    if (closed || pending.has(room)) return;
    const wait = () => recountEvery(room) - (Date.now() - (lastRecount.get(room) ?? 0));
    const timer = setTimeout(
      () => {
        pending.delete(room);
        // another replica's count arrived meanwhile: this one waits its turn again
        if (wait() > RECOUNT_DEBOUNCE_MS) return scheduleRecount(room);
        broadcastIfChanged(room).catch((err: unknown) => logger.warn({ err, room }, 'presence recount failed'));
      },
      Math.max(RECOUNT_DEBOUNCE_MS, wait()),
    );
    timer.unref();
    pending.set(room, timer);
  }

  function trackRoom(room: string, delta: 1 | -1): void {
    const tracked = rooms.get(room);
    if (delta === 1) {
      if (tracked) tracked.members += 1;
      else {
        const unlisten = bus.listen(roomChannel(room), (event) => {
          if (event.type !== 'presence') return;
          lastBroadcast.set(room, `${event.presence.online}/${event.presence.total}`);
          lastRecount.set(room, Date.now());
          cache.set(room, { view: event.presence, at: Date.now() });
        });
        rooms.set(room, { members: 1, unlisten });
      }
      return;
    }
    if (!tracked || --tracked.members > 0) return;
    rooms.delete(room);
    lastBroadcast.delete(room);
    lastRecount.delete(room);
    void tracked.unlisten.then((stop) => stop());
  }

  /** One write per set (in chunks), not one per connection and set: 10,000 connections renew in a handful of commands. */
  function renewAll(): Promise<void> {
    return renewMembers(
      store,
      (add) => {
        for (const conn of connections.values()) {
          add(ALL, conn.member);
          for (const room of conn.rooms.keys()) add(roomKey(room), conn.member);
        }
      },
      leaseMs,
    );
  }

  const heartbeat = setInterval(() => renewAll().catch((err: unknown) => logger.warn({ err }, 'presence heartbeat failed')), deps.heartbeatMs ?? PRESENCE_HEARTBEAT_MS);
  heartbeat.unref();
  const sweep = setInterval(() => {
    for (const room of rooms.keys()) scheduleRecount(room);
  }, deps.sweepMs ?? SWEEP_MS);
  sweep.unref();

  return {
    async connect(connId, wallet) {
      if (closed || connections.has(connId)) return;
      const member = `${wallet ?? `anon:${connId}`}|${connId}`;
      connections.set(connId, { member, rooms: new Map() });
      await store.addMember(ALL, member, leaseMs);
    },

    async disconnect(connId) {
      const conn = connections.get(connId);
      if (!conn) return;
      connections.delete(connId);
      await Promise.all([store.removeMember(ALL, conn.member), ...[...conn.rooms.keys()].map((room) => store.removeMember(roomKey(room), conn.member))]);
      for (const room of conn.rooms.keys()) {
        trackRoom(room, -1);
        scheduleRecount(room);
      }
    },

    async join(connId, room) {
      const conn = connections.get(connId);
      if (!conn) return;
      const times = conn.rooms.get(room) ?? 0;
      conn.rooms.set(room, times + 1);
      if (times > 0) return;
      trackRoom(room, 1);
      await store.addMember(roomKey(room), conn.member, leaseMs);
      scheduleRecount(room);
    },

    async leave(connId, room) {
      const conn = connections.get(connId);
      const times = conn?.rooms.get(room);
      if (!conn || !times) return;
      if (times > 1) return void conn.rooms.set(room, times - 1);
      conn.rooms.delete(room);
      trackRoom(room, -1);
      await store.removeMember(roomKey(room), conn.member);
      scheduleRecount(room);
    },

    async counts(room) {
      const cached = cache.get(room);
      if (cached && Date.now() - cached.at < Math.max(COUNT_CACHE_MS, recountEvery(room))) return cached.view;
      return recount(room);
    },

    async close() {
      closed = true;
      clearInterval(heartbeat);
      clearInterval(sweep);
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      const ids = [...connections.keys()];
      await Promise.all(ids.map((id) => this.disconnect(id).catch(() => undefined)));
    },
  };
}
