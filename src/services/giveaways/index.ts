export * from './service';
export * from './domain';
