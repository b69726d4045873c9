import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { testLogger } from '../helpers/db';
import { startJobsRole, type JobsRunner } from '../../src/jobs';

// The nightly gift reset as a job of the jobs runner (JOBS.GIFT_RESET_CRON, 00:00 UTC by default).

let api: TestApi;
let runner: JobsRunner;

beforeAll(async () => {
  api = await startApi({ env: { TRUSTED_PROXY_CIDRS: '127.0.0.0/8' } });
  runner = startJobsRole({ config: api.config, db: api.db, logger: testLogger, services: api.services });
}, 60_000);
afterAll(async () => {
  await runner?.stop();
  await api?.close();
});

describe('gift reset job', () => {
  it('is scheduled at 00:00 UTC by default and resets the counters once per tick, logged in the run log', async () => {
    expect(api.config.jobs.giftResetCron).toBe('0 0 * * *');
    expect(runner.jobs).toContain('gift-reset');
    const now = Date.now();
    await api.db.prisma.giftDeliverySchedule.create({ data: { project: 'nightly', startsAt: new Date(now - 3600_000), endsAt: new Date(now + 3600_000), dailyQuota: 1 } });
    await api.services.gifts.loadStash('nightly', ['https://gifts.example/n1', 'https://gifts.example/n2']);
    const get = (ip: string) => fetch(`${api.url}/api/gift/get?project=nightly`, { headers: { 'x-forwarded-for': ip } });
    expect((await get('10.9.0.1')).status).toBe(200);
    expect((await get('10.9.0.2')).status).toBe(429);

    const midnight = new Date(Math.ceil(now / 86_400_000) * 86_400_000);
    expect(await runner.tick('gift-reset', midnight)).toBe('ran');
    expect(await runner.tick('gift-reset', midnight)).toBe('taken');
    expect((await get('10.9.0.2')).status).toBe(200);

    const runs = await api.db.prisma.opsJobRun.findMany({ where: { jobKey: 'gift-reset' } });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'ok', detail: { tick: midnight.toISOString(), reason: 'manual', projectCounters: 1, ipCounters: 1 } });
  });
});
