import { Arg, Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import { Authorized } from '../graphql/authorized';
import { operatorActor } from '../edge/authorize';
import type { Services } from '../services';
import type { ChainWriteView } from '../services/chain-writer';

@ObjectType({ description: 'A blockchain write of the backend wallet (the chain-write outbox)' })
class ChainWrite {
  @Field(() => String) id!: string;
  @Field(() => String, { description: 'e.g. welcome-wheel.payout, giveaway.settle' }) kind!: string;
  @Field(() => String, { description: 'Idempotency key (one write per key)' }) key!: string;
  @Field(() => String, { description: 'queued → submitted → confirmed | failed; queued → cancelled' }) status!: ChainWriteView['status'];
  @Field(() => String, { description: "The kind's input, as JSON" }) payload!: string;
  @Field(() => String, { nullable: true, description: 'Transaction digest once signed' }) digest!: string | null;
  @Field(() => Int, { description: 'Attempts since the write was last queued' }) attempts!: number;
  @Field(() => String, { nullable: true, description: 'The last transient error while retried; the final error of a failed write' }) lastError!: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601: when the next automatic attempt is due after a transient failure' }) nextAttemptAt!: string | null;
  @Field(() => String, { nullable: true, description: 'MIST: the dry run plus the margin' }) gasBudget!: string | null;
  @Field(() => String, { nullable: true, description: 'MIST: computation + storage − rebate' }) gasUsed!: string | null;
  @Field(() => String, { nullable: true, description: 'success or failure, once executed' }) effectsStatus!: string | null;
  @Field(() => Boolean, { description: 'The outcome was learned by digest after a lost answer' }) resolvedByDigest!: boolean;
  @Field(() => String, { description: 'ISO 8601' }) createdAt!: string;
  @Field(() => String, { description: 'ISO 8601: when it last entered the queue (created, or retried by an operator)' }) queuedAt!: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601' }) submittedAt!: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601' }) finishedAt!: string | null;
}

@ObjectType()
class ChainWritePage {
  @Field(() => [ChainWrite], { description: 'Newest first' }) items!: ChainWrite[];
  @Field(() => String, { nullable: true, description: 'Pass as cursor for the next (older) page' }) nextCursor!: string | null;
}

const toGraphql = (w: ChainWriteView): ChainWrite => ({ ...w, payload: JSON.stringify(w.payload) });

/** The chain-write outbox for operators (the GraphQL side of /api/admin/chain-writes). */
@Resolver()
export class ChainWritesResolver {
  constructor(private readonly services: Services) {}

  @Authorized('operator')
  @Query(() => ChainWritePage, { description: 'Chain writes, newest first, optionally of one status and kind (operator only)' })
  async chainWrites(
    @Arg('status', () => String, { nullable: true, description: 'queued, submitted, confirmed, failed or cancelled' }) status?: string,
    @Arg('kind', () => String, { nullable: true }) kind?: string,
    @Arg('cursor', () => String, { nullable: true }) cursor?: string,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
  ): Promise<ChainWritePage> {
    const page = await this.services.chainWrites.list({ status: status ?? undefined, kind: kind ?? undefined, cursor: cursor ?? undefined, limit: limit ?? undefined });
    return { items: page.items.map(toGraphql), nextCursor: page.nextCursor };
  }

  @Authorized('operator')
  @Query(() => ChainWrite, { description: 'One chain write (operator only)' })
  async chainWrite(@Arg('id', () => String) id: string): Promise<ChainWrite> {
    return toGraphql(await this.services.chainWrites.get({ id }));
  }

  @Authorized('operator')
  @Mutation(() => ChainWrite, { description: 'Queue a failed chain write again; any other status: CONFLICT (operator only)' })
  async retryChainWrite(@Ctx() ctx: GraphqlContext, @Arg('id', () => String) id: string): Promise<ChainWrite> {
    return toGraphql(await this.services.chainWrites.retry(operatorActor(ctx), { id }, ctx.requestId));
  }

  @Authorized('operator')
  @Mutation(() => ChainWrite, { description: 'Cancel a queued chain write; a submitted or finished one: CONFLICT (operator only)' })
  async cancelChainWrite(@Ctx() ctx: GraphqlContext, @Arg('id', () => String) id: string): Promise<ChainWrite> {
    return toGraphql(await this.services.chainWrites.cancel(operatorActor(ctx), { id }, ctx.requestId));
  }
}
