export * from './bets';
export * from './service';
export * from './domain';
