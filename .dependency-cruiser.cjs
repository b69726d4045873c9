// Layers point one way (docs/decisions.md, "Layers"):
//   src/config → src/db, src/store and the other leaves (observability, errors.ts, providers,
//   chain-events, …) → src/services → adapters (resolvers, http, gateway, graphql, indexer, jobs)
//   → the composition root (src/main.ts, src/runtime*).
// `npm run check:deps` fails on any edge below; type-only imports count too.

const SERVICES = '^src/services/';
const ADAPTERS = '^src/(resolvers|http|gateway|graphql|indexer|jobs)/';
const REQUEST_ADAPTERS = '^src/(resolvers|http|gateway|graphql)/';
const BACKGROUND_ROLES = '^src/(indexer|jobs)/';
const ROOT = '^src/(main\\.ts|runtime)';
const ABOVE_LEAVES = [SERVICES, ADAPTERS, ROOT];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle between modules (or folders) means neither can be understood, tested or replaced alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'config-is-the-bottom',
      severity: 'error',
      comment: 'src/config parses the environment into one typed object; it builds on nothing else in src except the error family.',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: ['^src/config/', '^src/errors\\.ts$'] },
    },
    {
      name: 'leaves-stay-below-services',
      severity: 'error',
      comment: 'db, store, observability, errors, providers, chain-events and other leaves sit below the services: they never import a service, an adapter or the composition root.',
      from: { path: '^src/', pathNot: ABOVE_LEAVES },
      to: { path: ABOVE_LEAVES },
    },
    {
      name: 'services-never-import-adapters',
      severity: 'error',
      comment: 'A service never imports a resolver, a route, the gateway, the GraphQL wiring, the indexer or the jobs: adapters call services, not the reverse.',
      from: { path: SERVICES },
      to: { path: [ADAPTERS, ROOT] },
    },
    {
      name: 'request-adapters-do-not-reach-background-roles',
      severity: 'error',
      comment: 'Resolvers, routes, the gateway and the GraphQL wiring reach indexer or job state through a service (e.g. services/indexer-status), never by importing the role.',
      from: { path: REQUEST_ADAPTERS },
      to: { path: BACKGROUND_ROLES },
    },
    {
      name: 'background-roles-do-not-reach-request-adapters',
      severity: 'error',
      comment: 'The indexer and the jobs run without the API: they use services and the leaves, never resolvers, routes, the gateway or the GraphQL wiring.',
      from: { path: BACKGROUND_ROLES },
      to: { path: REQUEST_ADAPTERS },
    },
    {
      name: 'only-the-root-composes',
      severity: 'error',
      comment: 'src/main.ts and src/runtime* are the only composition root: nothing in src imports them (tests and benches may).',
      from: { path: '^src/', pathNot: ROOT },
      to: { path: ROOT },
    },
    {
      name: 'edge-imports-no-transport',
      severity: 'error',
      comment: 'src/edge is shared by HTTP, graphql-ws and Socket.IO: it imports no transport or GraphQL library, so each transport adapts to it, not the reverse.',
      from: { path: '^src/edge/' },
      to: { path: 'node_modules/(fastify|@fastify/|graphql|type-graphql|graphql-ws|ws/|socket\\.io|@socket\\.io/|engine\\.io|@apollo/)' },
    },
    {
      name: 'cms-reached-through-services',
      severity: 'error',
      comment: 'The backend reaches the CMS (publishing, reads, lifecycle) only through a service (services/blog) or the composition root.',
      from: { path: '^src/', pathNot: [SERVICES, ROOT] },
      to: { path: '^cms/' },
    },
    {
      name: 'cms-and-blog-do-not-import-src',
      severity: 'error',
      comment: 'cms/ and blog/ are separate apps: they may use the one configuration schema (src/config) handed to them, never other src internals.',
      from: { path: '^(cms|blog)/' },
      to: { path: '^src/', pathNot: '^src/config/' },
    },
    {
      name: 'cms-does-not-import-blog',
      severity: 'error',
      comment: 'The Next.js blog renders the CMS, not the reverse.',
      from: { path: '^cms/' },
      to: { path: '^blog/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^src/generated/', '^blog/\\.next/', '^blog/next-env\\.d\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
