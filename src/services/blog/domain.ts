import { defineDomain } from '../domain';
import { readCacheDomain } from '../read-cache';
import { createBlogService } from './service';

export const blogDomain = defineDomain({
  name: 'blog',
  settings: ['blog'],
  needs: [readCacheDomain],
  create: ({ config, logger }, { readCache }) => ({ blog: createBlogService({ cmsUrl: config.blog.cmsUrl, webhookSecret: config.blog.webhookSecret, logger, readCache }) }),
});
