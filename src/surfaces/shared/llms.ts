import { isIndexable, type SurfaceSite } from './site';

const PRODUCT = 'Platform';

/**
 * `/llms.txt` (llmstxt.org layout): a title, a one-line summary, then sections of explicit
 * markdown links `- [name](absolute url): note`. Off mainnet it lists no URL.
 */
export function buildLlmsTxt(site: SurfaceSite): string {
  if (!isIndexable(site)) {
    return `# ${PRODUCT} (${site.network})\n\n> A non-production deployment. Nothing here is meant to be indexed; use the mainnet site.\n`;
  }
  const links: [string, string, string][] = [
    ['App', `${site.appUrl}/`, 'play on-chain casino games, quests and rewards'],
    ['Blog', `${site.blogUrl}/`, 'guides and product news'],
    ['Blog RSS feed', `${site.blogUrl}/rss.xml`, 'every published post'],
    ['Docs', `${site.docsUrl}/`, 'how the platform works'],
    ['Sitemap index', `${site.appUrl}/sitemap_index.xml`, 'every indexable URL'],
  ];
  const lines = links.map(([name, url, note]) => `- [${name}](${url}): ${note}`);
  return `# ${PRODUCT}\n\n> An on-chain casino platform: games, quests with XP rewards, weekly races and a blog.\n\n## Site\n\n${lines.join('\n')}\n`;
}

const MARKDOWN_LINK = /\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g;

/** Links written as `[text](url)`, and bare URLs outside them (the rule: links are explicit markdown links). */
export function llmsLinks(text: string): { links: { text: string; url: string }[]; bareUrls: string[] } {
  const links = [...text.matchAll(MARKDOWN_LINK)].map((m) => ({ text: m[1], url: m[2] }));
  const bareUrls = [...text.replace(MARKDOWN_LINK, '').matchAll(/(?:https?:\/\/|www\.)[^\s)>\]]+/g)].map((m) => m[0]);
  return { links, bareUrls };
}
