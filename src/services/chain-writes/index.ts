export * from './loop';
export * from './service';
export * from './domain';
export { createChainWriteAdmin, toView, type ChainWriteAdmin, type ChainWriteView } from './admin';
export { CHAIN_WRITE_STATUSES, chainWriteIdInput, chainWriteListInput, chainWriteModel, chainWritePageModel, chainWriteStatus } from './model';
export { chainWriteOperations } from './operations';
