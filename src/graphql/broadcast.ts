import { Extensions } from 'type-graphql';

/** The schema extension that marks a subscription field as the same for every listener. */
export const BROADCAST_EXTENSION = 'broadcast';

/**
 * On a subscription whose answer does not depend on who listens (nothing below it reads the
 * viewer): the gateway executes and serializes it once per event per process (src/gateway/broadcast-results.ts).
 */
export const Broadcast = (): MethodDecorator & ClassDecorator & PropertyDecorator => Extensions({ [BROADCAST_EXTENSION]: true });
