import type { PubSub } from 'type-graphql';

export const ACTIVITY_TOPIC = 'activity';

export interface ActivityEvent {
  kind: string;
  player: string;
  summary: string;
  at: Date;
}

export interface ActivityService {
  /** Broadcast to every subscriber on every replica (through the shared store's pub/sub). */
  publish(event: ActivityEvent): Promise<void>;
}

export function createActivityService(pubSub: PubSub): ActivityService {
  return {
    async publish(event) {
      await pubSub.publish(ACTIVITY_TOPIC, { ...event, at: event.at.toISOString() });
    },
  };
}
