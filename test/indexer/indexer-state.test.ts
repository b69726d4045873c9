import { describe, expect, it } from 'vitest';
import { createIndexerState, NEWS_WINDOW_CHECKPOINTS } from '../../src/indexer/state.js';

const leading = () => {
  const s = createIndexerState('i1', ['bet_result_event', 'vip_exp_progress_event']);
  s.becameLeader();
  s.setTip(1_000n);
  return s;
};

describe('indexer state: which committed batches are news', () => {
  it('the first catch-up of a term is not news', () => {
    const s = leading();
    s.committed('bet_result_event', 50, { checkpoint: 990n, timestampMs: 1 });
    expect(s.isNews('bet_result_event', 990n)).toBe(false);
  });

  it('after the kind reached the tip, a burst over several pages is news even while another kind backfills', () => {
    const s = leading();
    s.reachedTip('bet_result_event');
    s.setTip(1_060n);
    s.committed('bet_result_event', 50, { checkpoint: 1_030n, timestampMs: 1 });
    s.committed('bet_result_event', 10, { checkpoint: 1_060n, timestampMs: 2 });
    expect(s.mode()).toBe('backfill');
    expect(s.isNews('bet_result_event', 1_030n)).toBe(true);
    expect(s.isNews('bet_result_event', 1_060n)).toBe(true);
    expect(s.isNews('vip_exp_progress_event', 1_060n)).toBe(false);
  });

  it('a backlog more than the window behind the tip is not news; a stale tip behind the batch is', () => {
    const s = leading();
    s.reachedTip('bet_result_event');
    s.setTip(10_000n);
    expect(s.isNews('bet_result_event', 10_000n - NEWS_WINDOW_CHECKPOINTS - 1n)).toBe(false);
    expect(s.isNews('bet_result_event', 10_000n - NEWS_WINDOW_CHECKPOINTS)).toBe(true);
    expect(s.isNews('bet_result_event', 10_500n)).toBe(true);
  });

  it('a new term starts over, and a non-leader has no news', () => {
    const s = leading();
    s.reachedTip('bet_result_event');
    s.lostLeadership();
    expect(s.isNews('bet_result_event', 1_000n)).toBe(false);
    s.becameLeader();
    expect(s.isNews('bet_result_event', 1_000n)).toBe(false);
  });
});
