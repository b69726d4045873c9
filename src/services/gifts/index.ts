export * from './metrics';
export * from './service';
export * from './domain';
export { createProjectInput, giftProjectModel, setWindowsInput, stashInput, type GiftProjectSummary } from './model';
export { giftOperations } from './operations';
export { giftPlayerOperations } from './player-operations';
export { giftDeliveryModel, giftRemainingModel } from './model';
export type { GiftAdmin } from './admin';
