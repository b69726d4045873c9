import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import { Authorized } from '../graphql/authorized';
import { operatorActor } from '../edge/authorize';
import type { Services } from '../services';
import type { GiftProjectSummary } from '../services/gifts';

@ObjectType()
class GiftStashCount {
  @Field(() => Int) total!: number;
  @Field(() => Int) delivered!: number;
  @Field(() => Int, { description: 'URLs not yet handed out' }) left!: number;
}

@ObjectType()
class GiftProjectQuota {
  @Field(() => Int) limit!: number;
  @Field(() => Int) delivered!: number;
  @Field(() => Int) remaining!: number;
}

@ObjectType()
class GiftProjectWindow {
  @Field(() => String) id!: string;
  @Field(() => Date) startsAt!: Date;
  @Field(() => Date) endsAt!: Date;
  @Field(() => Int) dailyQuota!: number;
  @Field(() => Boolean) enabled!: boolean;
  @Field(() => Boolean, { description: 'Open now' }) open!: boolean;
  @Field(() => Int, { description: 'Gifts handed out while it was open' }) delivered!: number;
}

@ObjectType({ description: 'A gift project as operators run it' })
class GiftProject {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => GiftStashCount) stash!: GiftStashCount;
  @Field(() => GiftProjectQuota, { description: "Today's project quota (the open window's dailyQuota)" }) today!: GiftProjectQuota;
  @Field(() => [GiftProjectWindow]) windows!: GiftProjectWindow[];
}

@ObjectType()
class GiftStashLoad {
  @Field(() => Int) added!: number;
  @Field(() => Int, { description: 'Already stashed (any project) or repeated' }) skipped!: number;
  @Field(() => GiftProject) project!: GiftProject;
}

@InputType()
class GiftWindowInput {
  @Field(() => String, { description: 'ISO 8601 with a zone' }) startsAt!: string;
  @Field(() => String, { description: 'ISO 8601 with a zone, after startsAt' }) endsAt!: string;
  @Field(() => Int) dailyQuota!: number;
  @Field(() => Boolean, { nullable: true, description: 'Default true' }) enabled?: boolean;
}

/** Gift projects, windows and stash (the GraphQL side of /api/admin/gifts). */
@Resolver()
export class GiftAdminResolver {
  constructor(private readonly services: Services) {}

  @Authorized('operator')
  @Query(() => [GiftProject], { description: 'Gift projects with stash left and window deliveries (operator only)' })
  giftProjects(): Promise<GiftProjectSummary[]> {
    return this.services.giftAdmin.projects();
  }

  @Authorized('operator')
  @Mutation(() => GiftProject, { description: 'Create a gift project (operator only)' })
  createGiftProject(@Ctx() ctx: GraphqlContext, @Arg('name', () => String) name: string, @Arg('title', () => String, { nullable: true }) title?: string): Promise<GiftProjectSummary> {
    return this.services.giftAdmin.createProject(operatorActor(ctx), { name, ...(title != null ? { title } : {}) }, ctx.requestId);
  }

  @Authorized('operator')
  @Mutation(() => GiftProject, { description: "Replace a project's delivery windows and daily quotas (operator only)" })
  setGiftWindows(@Ctx() ctx: GraphqlContext, @Arg('project', () => String) project: string, @Arg('windows', () => [GiftWindowInput]) windows: GiftWindowInput[]): Promise<GiftProjectSummary> {
    const plain = windows.map((w) => ({ startsAt: w.startsAt, endsAt: w.endsAt, dailyQuota: w.dailyQuota, ...(w.enabled != null ? { enabled: w.enabled } : {}) }));
    return this.services.giftAdmin.setWindows(operatorActor(ctx), project, { windows: plain }, ctx.requestId);
  }

  @Authorized('operator')
  @Mutation(() => GiftStashLoad, { description: "Add gift URLs to a project's stash (operator only)" })
  loadGiftStash(@Ctx() ctx: GraphqlContext, @Arg('project', () => String) project: string, @Arg('urls', () => [String]) urls: string[]): Promise<GiftStashLoad> {
    return this.services.giftAdmin.loadStash(operatorActor(ctx), project, { urls }, ctx.requestId);
  }
}
