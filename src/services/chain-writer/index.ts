export * from './loop';
export * from './service';
