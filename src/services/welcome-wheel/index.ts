export * from './service';
export * from './domain';
export * from './model';
export { payoutWriteKey, registerWelcomeWheelPayout, WELCOME_WHEEL_PAYOUT_KIND } from './payout';
export * from './operations';
