export * from './feeds';
export * from './service';
