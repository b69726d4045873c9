import type { Db } from '../../db/client';
import type { Catalogue } from './catalogue';
import { questColumns } from './catalogue-store';

export interface SeedResult {
  /** Slugs of the campaigns created. */
  campaigns: string[];
  /** `slug/key` of the quests created. */
  quests: string[];
}

/**
 * Inserts what the catalogue has and the database lacks, and changes nothing that exists
 * (INSERT … ON CONFLICT DO NOTHING, so two processes seeding at once are fine): after the first
 * seed, operators own campaigns and quests, and an edit is never overwritten. The catalogue's
 * campaigns that are missing are created unless `campaigns: false`; its quests that are missing
 * are added to their campaign when that campaign exists (a default quest added to the code reaches
 * an existing deployment this way). Returns what was created.
 */
export async function seedCatalogue(db: Pick<Db, 'prisma'>, catalogue: Catalogue, opts: { campaigns?: boolean } = {}): Promise<SeedResult> {
  const campaigns =
    opts.campaigns === false
      ? []
      : await db.prisma.campaign.createManyAndReturn({
          data: catalogue.map(({ campaign }) => campaign),
          skipDuplicates: true,
          select: { slug: true },
        });
  const existing = new Set(
    (await db.prisma.campaign.findMany({ where: { slug: { in: catalogue.map((c) => c.campaign.slug) } }, select: { slug: true } })).map((c) => c.slug),
  );
  const quests = await db.prisma.quest.createManyAndReturn({
    data: catalogue
      .filter((c) => existing.has(c.campaign.slug))
      .flatMap(({ campaign, quests: list }) => list.map((q, position) => ({ campaignSlug: campaign.slug, key: q.key, position, ...questColumns(q) }))),
    skipDuplicates: true,
    select: { campaignSlug: true, key: true },
  });
  return { campaigns: campaigns.map((r) => r.slug), quests: quests.map((q) => `${q.campaignSlug}/${q.key}`) };
}
