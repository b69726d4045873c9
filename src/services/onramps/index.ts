export * from './service';
export * from './domain';
export * from './operations';
