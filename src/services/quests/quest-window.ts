import type { QuestDefinition } from './catalogue';
import type { QuestLifecycle } from './model';

/** The quest's own window clipped to its campaign's (end exclusive). */
export function questWindow(quest: QuestDefinition, campaign: { startAt: Date; endAt: Date }): { startAt: Date; endAt: Date } {
  const startAt = quest.startAt && quest.startAt > campaign.startAt ? quest.startAt : campaign.startAt;
  const endAt = quest.endAt && quest.endAt < campaign.endAt ? quest.endAt : campaign.endAt;
  return { startAt, endAt };
}

/** A quest's state now; a quest switched off, or of a campaign switched off, is `inactive`. */
export function lifecycleOf(quest: QuestDefinition, campaign: { startAt: Date; endAt: Date; enabled?: boolean }, now: Date): QuestLifecycle {
  if (quest.enabled === false || campaign.enabled === false) return 'inactive';
  const w = questWindow(quest, campaign);
  if (now < w.startAt) return 'upcoming';
  if (now >= w.endAt) return 'expired';
  return 'active';
}
