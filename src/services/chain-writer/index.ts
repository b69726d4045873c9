export * from './loop';
export * from './service';
export * from './domain';
