/** Connection leases: held connections are renewed together by one pass per interval; the rest lapse after the lease. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config';
import { createConnectionLeases, LEASE_RENEW_MS, LEASE_TTL_MS, type Scope } from '../../src/gateway/caps';
import { createMemoryStore } from '../../src/store';
import { testLogger } from '../helpers/db';

afterEach(() => void vi.useRealTimers());

describe('connection leases', () => {
  it('renews every held connection in one pass per set; a connection no longer held lapses after its lease', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-25T12:00:00Z') });
    const store = createMemoryStore({ logger: testLogger });
    const addMembers = vi.spyOn(store, 'addMembers');
    const leases = createConnectionLeases(store, loadConfig({ envDir: '/nonexistent', env: {} }).websocket);
    const scopesOf = (ip: string): Array<[Scope, string]> => [
      ['service', ''],
      ['ip', ip],
    ];
    const conns = Array.from({ length: 30 }, (_, i) => ({ id: `c${i}`, scopes: scopesOf(i < 20 ? '10.0.0.1' : '10.0.0.2') }));
    for (const c of conns) expect(await leases.admit(c.id, c.scopes)).toBeNull();
    const unholds = conns.map((c) => leases.hold(c.id, c.scopes));
    // a scope added after the hold (the wallet, once the handshake's token is verified) is renewed too
    conns[0]!.scopes.push(['wallet', '0xabc']);
    expect(await leases.admit('c0', [['wallet', '0xabc']])).toBeNull();
    unholds[29]!(); // c29 closed without releasing (its release failed): only the lease ends it

    await vi.advanceTimersByTimeAsync(LEASE_RENEW_MS);
    // one command per set: service, the two IPs and the wallet
    expect(addMembers).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(LEASE_TTL_MS + LEASE_RENEW_MS);
    const service = await store.members('ws:conn:service');
    expect(service).toHaveLength(29);
    expect(service).not.toContain('c29');
    expect(await store.members('ws:conn:ip:10.0.0.2')).toHaveLength(9);
    expect(await store.members('ws:conn:wallet:0xabc')).toEqual(['c0']);

    for (const unhold of unholds) unhold();
    addMembers.mockClear();
    await vi.advanceTimersByTimeAsync(LEASE_RENEW_MS * 2);
    expect(addMembers).not.toHaveBeenCalled();
    await store.close();
  });
});
