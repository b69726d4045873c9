// The soak's judgement (issue 47, goal 4) on windows whose figures are the ones measured: the leak
// check must pass a young generation that V8 resizes and fail memory that grows outside it.
import { describe, expect, it } from 'vitest';
import type { ProcessSample } from '../../bench/soak/probes';
import { judgeGoals, type WindowReport } from '../../bench/soak/report';

const process = (name: string, rssMiB: number, youngMiB = NaN): ProcessSample => ({
  name,
  rssMiB,
  youngMiB,
  rssLessYoungMiB: rssMiB - youngMiB,
  heapUsedMiB: 50,
  heapTotalMiB: 90,
  externalMiB: 6,
  lagP99Ms: 12,
  openFds: 30,
});

const window = (index: number, processes: ProcessSample[], errors = 0): WindowReport => ({
  index,
  minutes: index,
  ops: new Map([['gql.leaderboard', { count: 3000, p50Ms: 1.8, p99Ms: 10, designed: 0, limited: 0, errors }]]),
  system: { processes, pgConnections: 12, redisUsedMiB: 3.4, load1: 1.5, eventsIndexed: 10_000 },
  started: 22_000,
  skipped: 0,
});

/** Seven one-minute windows: the indexer's RSS at each window's end, and its young generation then. */
function run(indexer: Array<[number, number]>, next = [415, 417]): WindowReport[] {
  return indexer.map(([rss, young], i) => window(i + 1, [process('api-1', 282, 32), process('indexer', rss, young), process('blog (next)', i < 2 ? next[0]! : next[1]!)]));
}

describe('the soak leak check', () => {
  it('passes an indexer whose young generation V8 shrank at the warm-up and grew back (measured on the indexer: RSS 194 → 175 → 194 MiB as its young generation went 32 → 16 → 32 MiB)', () => {
    const windows = run([
      [197, 32],
      [177, 16],
      [177, 16],
      [194, 32],
      [194, 32],
      [175, 16],
      [196, 32],
    ]);
    const goals = judgeGoals(windows, 2, []);
    expect(goals.met.rss).toBe(false);
    expect(goals.met.rssLeakCheck).toBe(true);
    expect(goals.lines.join('\n')).toMatch(/MISSED {2}RSS growth under 10 %.*indexer 177 → 196 MiB \(\+10\.7 %\)/);
    expect(goals.lines.join('\n')).toMatch(/MET {2}leak check: .*indexer 161 → 164 MiB \(\+1\.9 %\)/);
  });

  it('fails memory that grows outside the young generation', () => {
    const windows = run([
      [190, 32],
      [190, 32],
      [196, 32],
      [202, 32],
      [208, 32],
      [214, 32],
      [220, 32],
    ]);
    const goals = judgeGoals(windows, 2, []);
    expect(goals.met.rssLeakCheck).toBe(false);
    expect(goals.lines.join('\n')).toMatch(/MISSED {2}leak check: .*indexer 158 → 188 MiB \(\+19\.0 %\)/);
  });

  it('prints the Next server without judging it there; the record judges its RSS', () => {
    const steady: Array<[number, number]> = Array.from({ length: 7 }, () => [190, 32]);
    const goals = judgeGoals(run(steady, [380, 496]), 2, []);
    expect(goals.met.rssLeakCheck).toBe(true);
    expect(goals.met.rss).toBe(false);
    expect(goals.lines.join('\n')).toMatch(/blog \(next\) 380 → 496 MiB \(\+30\.5 %\)/);
  });

  it('fails on any error but the designed ones', () => {
    const windows = run(Array.from({ length: 7 }, () => [190, 32]));
    windows[4] = { ...windows[4]!, ops: new Map([['gql.leaderboard', { count: 3000, p50Ms: 1.8, p99Ms: 10, designed: 0, limited: 0, errors: 1 }]]) };
    const goals = judgeGoals(windows, 2, ['gql.leaderboard: 500']);
    expect(goals.met.errors).toBe(false);
    expect(goals.lines.at(-1)).toContain('1 errors');
  });
});
