export * from './retention';
export * from './service';
export * from './domain';
export * from './model';
export * from './operations';
