// Placeholder until the blog app lands: serves a minimal page under /blog so `npm start` shows the role.
import { createServer } from 'node:http';

const port = Number(process.env.BLOG_PORT ?? 3001);
createServer((req, res) => {
  res.writeHead(req.url?.startsWith('/blog') ? 200 : 404, { 'content-type': 'text/plain' });
  res.end('blog: not built yet\n');
}).listen(port);
