// Applies the blog CMS's migrations to BLOG_DATABASE_URL (the bench's blog database), as the
// blog process does on start; run as its own process by bench/seed.ts before the posts are seeded.
import { closeBlogPayload, openBlogPayload } from '../cms/lifecycle';

await closeBlogPayload(await openBlogPayload({ migrate: true }));
