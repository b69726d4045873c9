export * from './input';
export * from './room-events';
export * from './service';
export * from './domain';
