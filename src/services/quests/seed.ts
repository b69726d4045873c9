import type { Db } from '../../db/client';
import type { Catalogue } from './catalogue';

/**
 * Creates the catalogue's campaigns that do not exist yet (INSERT … ON CONFLICT DO NOTHING, so two
 * processes seeding at once are fine). Existing rows are left as they are: after the first seed,
 * operators own dates, `managesClaims` and copy. Returns the slugs created.
 */
export async function seedCampaigns(db: Pick<Db, 'prisma'>, catalogue: Catalogue): Promise<string[]> {
  const rows = await db.prisma.campaign.createManyAndReturn({
    data: catalogue.map(({ campaign: c }) => ({
      slug: c.slug,
      type: c.type,
      startAt: c.startAt,
      endAt: c.endAt,
      managesClaims: c.managesClaims,
      name: c.name ?? null,
      title: c.title ?? null,
      description: c.description ?? null,
      copyText: c.copyText ?? null,
    })),
    skipDuplicates: true,
    select: { slug: true },
  });
  return rows.map((r) => r.slug);
}
