export * from './retention';
export * from './service';
export * from './domain';
