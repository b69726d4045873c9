export * from './input';
export * from './room-events';
export * from './retention';
export * from './service';
export * from './domain';
