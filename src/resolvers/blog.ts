import { Arg, Directive, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { cacheControl, INHERIT_CACHE_CONTROL } from '../graphql/cache-policy';
import { CACHE_HINTS } from '../graphql/response-cache';
import type { Services } from '../services';

@Directive(INHERIT_CACHE_CONTROL)
@ObjectType({ description: 'A published blog post (read from the CMS)', simpleResolvers: true })
class BlogPostSummary {
  @Field(() => String) slug!: string;
  @Field(() => String) title!: string;
  @Field(() => String) excerpt!: string;
  @Field(() => String) seoDescription!: string;
  @Field(() => String) author!: string;
  @Field(() => [String]) tags!: string[];
  @Field(() => String, { description: 'ISO 8601' }) publishedAt!: string;
  @Field(() => String, { description: 'ISO 8601' }) updatedAt!: string;
  @Field(() => String, { description: 'Canonical URL, with trailing slash' }) url!: string;
  @Field(() => String, { nullable: true }) imageUrl!: string | null;
}

@Directive(INHERIT_CACHE_CONTROL)
@ObjectType({ simpleResolvers: true })
class BlogPostLink {
  @Field(() => String) url!: string;
  @Field(() => String) label!: string;
}

@Directive(INHERIT_CACHE_CONTROL)
@ObjectType()
class BlogPost extends BlogPostSummary {
  @Field(() => String, { description: 'Rendered body HTML' }) html!: string;
  @Field(() => [BlogPostLink]) internalLinks!: BlogPostLink[];
}

@Directive(INHERIT_CACHE_CONTROL)
@ObjectType({ simpleResolvers: true })
class BlogPostPage {
  @Field(() => [BlogPostSummary]) posts!: BlogPostSummary[];
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
  @Field(() => Int) totalPosts!: number;
  @Field(() => Int) totalPages!: number;
  @Field(() => Boolean) hasNextPage!: boolean;
}

@Resolver()
export class BlogResolver {
  constructor(private readonly services: Services) {}

  @Directive(cacheControl(CACHE_HINTS.blog))
  @Query(() => BlogPostPage, { description: 'Published posts, newest first (limit 1–100)' })
  async blogPosts(
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 20 }) limit: number,
  ): Promise<BlogPostPage> {
    const res = await this.services.blog.listPosts({ page, limit });
    return { posts: res.docs, page: res.page, limit: res.limit, totalPosts: res.totalDocs, totalPages: res.totalPages, hasNextPage: res.hasNextPage };
  }

  @Directive(cacheControl(CACHE_HINTS.blog))
  @Query(() => BlogPost, { nullable: true, description: 'One published post by slug' })
  blogPost(@Arg('slug', () => String) slug: string): Promise<BlogPost | null> {
    return this.services.blog.postBySlug(slug);
  }
}
