import { Arg, Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import { Authorized } from '../graphql/authorized';
import { operatorActor } from '../edge/authorize';
import type { Services } from '../services';
import type { AuditRecord, OperatorRecord, OperatorSource } from '../services/operators';

@ObjectType({ description: 'A wallet holding the operator role' })
class Operator implements OperatorRecord {
  @Field(() => String) wallet!: string;
  @Field(() => String, { description: '`setting` (OPERATOR_WALLETS, removed only there) or `grant`' }) source!: OperatorSource;
  @Field(() => String, { nullable: true, description: 'The granting operator (a wallet, or operator-token)' }) grantedBy!: string | null;
  @Field(() => Date, { nullable: true }) grantedAt!: Date | null;
}

@ObjectType({ description: 'One operator action' })
class OperatorAuditEntry {
  @Field(() => String) id!: string;
  @Field(() => String, { description: 'The operator wallet, or operator-token' }) actor!: string;
  @Field(() => String, { description: '`<area>.<verb>`, e.g. operators.grant, campaigns.update' }) action!: string;
  @Field(() => String) target!: string;
  @Field(() => String, { nullable: true, description: 'The target before the action, as JSON' }) before!: string | null;
  @Field(() => String, { nullable: true, description: 'The target after the action, as JSON' }) after!: string | null;
  @Field(() => String, { nullable: true }) requestId!: string | null;
  @Field(() => Date) at!: Date;
}

@ObjectType()
class OperatorAuditPage {
  @Field(() => [OperatorAuditEntry], { description: 'Newest first' }) items!: OperatorAuditEntry[];
  @Field(() => String, { nullable: true, description: 'Pass as cursor for the next (older) page' }) nextCursor!: string | null;
}

@ObjectType()
class OperatorRevocation {
  @Field(() => String) wallet!: string;
  @Field(() => Boolean) revoked!: boolean;
}

const asJson = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
const toEntry = (r: AuditRecord): OperatorAuditEntry => ({ ...r, before: asJson(r.before), after: asJson(r.after) });

/** Operators and the audit log (the GraphQL side of /api/admin/operators and /api/admin/audit). */
@Resolver()
export class OperatorsResolver {
  constructor(private readonly services: Services) {}

  @Authorized('operator')
  @Query(() => [Operator], { description: 'Operator wallets (operator only)' })
  operators(): Promise<Operator[]> {
    return this.services.operators.list();
  }

  @Authorized('operator')
  @Mutation(() => Operator, { description: 'Grant the operator role to a wallet (operator only)' })
  grantOperator(@Ctx() ctx: GraphqlContext, @Arg('wallet', () => String) wallet: string): Promise<Operator> {
    return this.services.operators.grant(operatorActor(ctx), { wallet }, ctx.requestId);
  }

  @Authorized('operator')
  @Mutation(() => OperatorRevocation, { description: 'Revoke a granted operator role, at once (operator only)' })
  revokeOperator(@Ctx() ctx: GraphqlContext, @Arg('wallet', () => String) wallet: string): Promise<OperatorRevocation> {
    return this.services.operators.revoke(operatorActor(ctx), { wallet }, ctx.requestId);
  }

  @Authorized('operator')
  @Query(() => OperatorAuditPage, { description: 'Every operator action, newest first (operator only)' })
  async operatorAudit(
    @Arg('cursor', () => String, { nullable: true }) cursor?: string,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
  ): Promise<OperatorAuditPage> {
    const page = await this.services.audit.list({ cursor: cursor ?? undefined, limit: limit ?? undefined });
    return { items: page.items.map(toEntry), nextCursor: page.nextCursor };
  }
}
