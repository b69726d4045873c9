import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import { ideBundle } from './bundle';

/** The page's assets, beside the GraphQL path (the page links them relatively, so a path prefix keeps working). */
const ASSETS = { 'graphiql.js': ['js', 'text/javascript; charset=utf-8'], 'graphiql.css': ['css', 'text/css; charset=utf-8'] } as const;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphiQL</title>
<link rel="stylesheet" href="graphql/ide/graphiql.css">
<script type="module" src="graphql/ide/graphiql.js"></script>
</head>
<body><div id="graphiql"></div></body>
</html>
`;

/**
 * GraphiQL as Apollo's landing page (GET /graphql preferring HTML; Apollo's own negotiation
 * decides, as it did for its CDN sandbox). With this plugin Apollo adds no default landing page.
 */
export function graphiqlLandingPage(): ApolloServerPlugin {
  return {
    async serverWillStart() {
      return {
        // Apollo renders this once at its start; the page's `html` runs per request.
        async renderLandingPage() {
          return {
            async html() {
              // The build starts with the page, so the script is usually ready when the browser asks for it.
              ideBundle().catch(() => undefined);
              return PAGE;
            },
          };
        },
      };
    },
  };
}

/** The page's script and stylesheet, built from the installed graphiql package on first use. */
export function registerIdeAssets(app: FastifyInstance): void {
  app.get<{ Params: { file: string } }>('/graphql/ide/:file', async (request, reply) => {
    const asset = ASSETS[request.params.file as keyof typeof ASSETS];
    if (!asset) return reply.callNotFound();
    const bundle = await ideBundle();
    return reply.type(asset[1]).header('cache-control', 'no-cache').send(bundle[asset[0]]);
  });
}
