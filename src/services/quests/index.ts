export * from './catalogue';
export * from './claims';
export * from './evaluators';
export * from './metrics';
export * from './progress';
export * from './seed';
export * from './service';
export * from './domain';
