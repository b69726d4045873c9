export { operatorsDomain } from './domain';
export { actorName, type AuditEntry, type AuditLog, type Tx } from './audit';
export type { OperatorRoleCheck, OperatorRoles } from './roles';
export { OPERATOR_SOURCES, type AuditRecord, type OperatorActor, type OperatorRecord, type OperatorSource } from './model';
export { auditPageModel, auditRecordModel, grantInput, operatorRecordModel } from './model';
export { operatorOperations } from './operations';
