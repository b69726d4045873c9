export * from './opaque-tokens';
export * from './operator-token';
export * from './service';
export * from './tokens';
export * from './zklogin';
export * from './domain';
export * from './zklogin-operations';
