export * from './indexer-status';
export * from './job-run-archive';
export * from './job-run-archive-file';
export * from './job-runs';
export * from './readiness';
export * from './system';
export * from './domain';
export * from './model';
