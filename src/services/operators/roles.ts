import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { parseInput } from '../../input/validate';
import type { Logger } from '../../observability/logger';
import { createReplicatedSnapshot, defineChannel, type Bus } from '../../store';
import { actorName, type AuditLog } from './audit';
import { grantInput, type OperatorActor, type OperatorRecord } from './model';

/** Published after a grant or revocation: every replica reloads its operator set. */
const operatorsChanged = defineChannel<{ wallet: string }>('operators:changed');

export interface OperatorRoleCheck {
  /** Whether the wallet holds the operator role now (read on every request; kept current in memory). */
  isOperator(wallet: string): boolean;
}

interface Deps {
  db: Db;
  bus: Bus;
  logger: Logger;
  audit: AuditLog;
  /** OPERATOR_WALLETS, normalized. */
  settingWallets: readonly string[];
}

/**
 * The operator role of wallets: OPERATOR_WALLETS by setting, others granted by an operator. The
 * set is held in memory so every request can check it without a query, reloaded at once on this
 * replica after a change, on the others through the bus within milliseconds, and every 5 s
 * regardless (a revoked operator loses access at once here, within 5 s even with the bus down).
 */
export function createOperatorRoles(deps: Deps) {
  const { db, bus, logger, audit } = deps;
  const fromSettings = new Set(deps.settingWallets);
  const granted = createReplicatedSnapshot({
    name: 'operators',
    bus,
    channel: operatorsChanged,
    logger,
    initial: new Set<string>(),
    load: async () => new Set((await db.prisma.operatorGrant.findMany({ where: { revokedAt: null }, select: { walletAddress: true } })).map((r) => r.walletAddress)),
  });

  return {
    isOperator: (wallet: string): boolean => fromSettings.has(wallet) || granted.get().has(wallet),
    start: () => granted.start(),
    close: () => granted.close(),

    async list(): Promise<OperatorRecord[]> {
      const rows = await db.prisma.operatorGrant.findMany({ where: { revokedAt: null }, orderBy: { grantedAt: 'asc' } });
      return [
        ...[...fromSettings].map((wallet) => ({ wallet, source: 'setting' as const, grantedBy: null, grantedAt: null })),
        ...rows.filter((r) => !fromSettings.has(r.walletAddress)).map((r) => ({ wallet: r.walletAddress, source: 'grant' as const, grantedBy: r.grantedBy, grantedAt: r.grantedAt })),
      ];
    },

    /** Grants the role (a wallet that already holds it: unchanged, no audit row). */
    async grant(actor: OperatorActor, input: unknown, requestId?: string): Promise<OperatorRecord> {
      const { wallet } = parseInput(grantInput, input);
      if (fromSettings.has(wallet)) return { wallet, source: 'setting', grantedBy: null, grantedAt: null };
      const row = await audit.audited({ actor, action: 'operators.grant', target: wallet, requestId }, async (tx) => {
        const before = await tx.operatorGrant.findUnique({ where: { walletAddress: wallet } });
        if (before && before.revokedAt === null) return { result: before };
        const after = await tx.operatorGrant.upsert({
          where: { walletAddress: wallet },
          create: { walletAddress: wallet, grantedBy: actorName(actor) },
          update: { grantedBy: actorName(actor), grantedAt: new Date(), revokedAt: null, revokedBy: null },
        });
        return { before, after, result: after };
      });
      await granted.changed({ wallet });
      return { wallet, source: 'grant', grantedBy: row.grantedBy, grantedAt: row.grantedAt };
    },

    /** Revokes a granted role at once; a wallet named by OPERATOR_WALLETS is revoked only there (409). */
    async revoke(actor: OperatorActor, input: unknown, requestId?: string): Promise<{ wallet: string; revoked: boolean }> {
      const { wallet } = parseInput(grantInput, input);
      if (fromSettings.has(wallet)) throw new AppError('CONFLICT', 'This wallet is an operator by the OPERATOR_WALLETS setting; remove it there', { wallet });
      const revoked = await audit.audited({ actor, action: 'operators.revoke', target: wallet, requestId }, async (tx) => {
        const before = await tx.operatorGrant.findUnique({ where: { walletAddress: wallet } });
        if (!before || before.revokedAt !== null) throw new AppError('NOT_FOUND', 'This wallet holds no granted operator role', { wallet });
        const after = await tx.operatorGrant.update({ where: { walletAddress: wallet }, data: { revokedAt: new Date(), revokedBy: actorName(actor) } });
        return { before, after, result: true };
      });
      await granted.changed({ wallet });
      return { wallet, revoked };
    },
  };
}

export type OperatorRoles = ReturnType<typeof createOperatorRoles>;
