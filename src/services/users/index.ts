export * from './mail';
export * from './service';
export * from './social-links';
export * from './domain';
export * from './model';
