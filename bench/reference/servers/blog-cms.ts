// The blog process's side of the blog reads, for the bench: Payload on the bench's blog database
// (BLOG_DATABASE_URL, bench/seed.ts) behind the CMS's platform routes (cms/platform-server.ts, the
// handlers the blog's Next server serves). Our API and Mercurius on our schema read the blog from
// it over loopback (BLOG_CMS_URL), as the API reads the blog process.
import { closeBlogPayload, openBlogPayload } from '../../../cms/lifecycle';
import { listenPlatformApi } from '../../../cms/platform-server';
import { announce } from './common';

const payload = await openBlogPayload();
const server = await listenPlatformApi(payload);
await announce({ url: server.url }, async () => {
  await server.close();
  await closeBlogPayload(payload);
});
