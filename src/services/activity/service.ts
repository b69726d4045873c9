import { defineChannel, type Bus } from '../../store';

export interface ActivityEvent {
  kind: string;
  player: string;
  summary: string;
  at: Date;
}

/** An activity event as it travels on the bus (JSON: `at` is an ISO timestamp). */
export interface ActivityMessage extends Omit<ActivityEvent, 'at'> {
  at: string;
}

/**
 * The activity feed's channel, read by the GraphQL subscription (type-graphql's `topics`) and
 * Socket.IO. Its store name is the one earlier releases used (type-graphql's `gql:` namespace), so
 * replicas of two releases keep exchanging events during a rolling deploy.
 */
export const activityChannel = defineChannel<ActivityMessage>('gql:activity');

export interface ActivityService {
  /** Broadcast to every subscriber on every replica (through the bus). */
  publish(event: ActivityEvent): Promise<void>;
}

export function createActivityService(bus: Bus): ActivityService {
  return {
    async publish(event) {
      await bus.publish(activityChannel, { ...event, at: event.at.toISOString() });
    },
  };
}
