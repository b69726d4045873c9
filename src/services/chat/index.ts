export * from './input';
export * from './moderation';
export * from './moderation-model';
export * from './room-events';
export * from './retention';
export * from './service';
export * from './domain';
export { chatModerationOperations } from './moderation-operations';
