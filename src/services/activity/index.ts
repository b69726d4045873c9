export * from './bets';
export * from './service';
