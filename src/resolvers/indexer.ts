import { Field, Float, GraphQLISODateTime, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { Services } from '../services';
import { indexerMode, type IndexerKindView, type IndexerMode, type IndexerStatusView } from '../services/system';
import { modelEnum } from './model-enum';

const IndexerModeEnum = modelEnum(indexerMode, { name: 'IndexerMode', description: 'backfill: some kind is behind the chain tip; live: following the tip; none: no leader published status recently' });

@ObjectType({ description: 'The indexing process that holds the leader lock' })
class IndexerLeader {
  @Field(() => String, { description: 'Random per process' }) instanceId!: string;
  @Field(() => GraphQLISODateTime) since!: Date;
  @Field(() => GraphQLISODateTime, { description: 'Last status the leader published' }) heartbeatAt!: Date;
}

@ObjectType({ description: 'Position of one followed event kind' })
class IndexerKindStatus implements IndexerKindView {
  @Field(() => String) kind!: IndexerKindView['kind'];
  @Field(() => String, { nullable: true }) transport!: string | null;
  @Field(() => String, { nullable: true, description: 'Opaque, transport-specific resume cursor' }) cursor!: string | null;
  @Field(() => String, { nullable: true }) lastTxDigest!: string | null;
  @Field(() => Int, { nullable: true }) lastEventSeq!: number | null;
  @Field(() => String, { nullable: true, description: 'u64 as a decimal string' }) lastCheckpoint!: string | null;
  @Field(() => String, { description: 'Rows written for this kind, all time (decimal string)' }) eventsIndexed!: string;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Chain time of the last stored event' }) lastEventAt!: Date | null;
  @Field(() => Float, { nullable: true, description: 'Now minus lastEventAt' }) lagSeconds!: number | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) updatedAt!: Date | null;
  @Field(() => Boolean, { nullable: true, description: 'Following the tip (from the leader; null without one)' }) caughtUp!: boolean | null;
  @Field(() => String, { nullable: true, description: 'Chain tip checkpoint minus lastCheckpoint, where the chain reports its tip' }) checkpointsBehind!: string | null;
  @Field(() => [String], { description: "How the package on the node differs from the fields this kind's decoder reads; the kind is not followed while any is listed (from the leader; empty without one)" })
  contractDifferences!: string[];
}

@ObjectType({ description: 'Indexer mode, leader, lag and per-kind positions' })
class IndexerStatus {
  @Field(() => IndexerModeEnum) mode!: IndexerMode;
  @Field(() => IndexerLeader, { nullable: true }) leader!: IndexerLeader | null;
  @Field(() => String, { nullable: true }) tipCheckpoint!: string | null;
  @Field(() => Float, { nullable: true }) eventsPerSecond!: number | null;
  @Field(() => Float, { nullable: true, description: 'Backfill progress 0..1 by checkpoints, where the tip is known' }) progress!: number | null;
  @Field(() => Float, { nullable: true }) etaSeconds!: number | null;
  @Field(() => [IndexerKindStatus]) kinds!: IndexerKindStatus[];
  @Field(() => GraphQLISODateTime) checkedAt!: Date;
}

@Resolver()
export class IndexerResolver {
  constructor(private readonly services: Services) {}

  @Query(() => IndexerStatus, { description: 'Operator view of the chain indexer (public chain positions only; see docs/decisions.md)' })
  indexerStatus(): Promise<IndexerStatusView> {
    return this.services.indexerStatus.status();
  }
}
