export * from './service';
export * from './subname';
