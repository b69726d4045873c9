export * from './metrics';
export * from './service';
