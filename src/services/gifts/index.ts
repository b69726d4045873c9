export * from './metrics';
export * from './service';
export * from './domain';
