export * from './service';
export * from './subname';
export * from './domain';
export * from './model';
export * from './operations';
