// Layers point one way (docs/decisions.md, "Layers"):
//   src/config → src/db, src/store and the other leaves (observability, errors.ts, providers,
//   chain-events, fastify (route hooks and the drain of the one Fastify app), …) → src/edge
//   (caller, authorization: transport-neutral) → src/services → adapters (resolvers, http,
//   gateway, graphql, indexer, jobs) → the composition root (src/main.ts, src/runtime*).
// `npm run check:deps` fails on any edge below; type-only imports count too.

const EDGE = '^src/edge/';
const SERVICES = '^src/services/';
const ADAPTERS = '^src/(resolvers|http|gateway|graphql|indexer|jobs)/';
const REQUEST_ADAPTERS = '^src/(resolvers|http|gateway|graphql)/';
const BACKGROUND_ROLES = '^src/(indexer|jobs)/';
const ROOT = '^src/(main\\.ts|runtime)';
const ABOVE_LEAVES = [EDGE, SERVICES, ADAPTERS, ROOT];
// The libraries of a transport (HTTP, GraphQL, graphql-ws, Socket.IO), their types included.
const TRANSPORT_LIBRARIES =
  '^node_modules/(fastify|@fastify/[^/]+|graphql|graphql-ws|graphql-jit|type-graphql|ws|@types/ws|socket\\.io|socket\\.io-[^/]+|@socket\\.io/[^/]+|engine\\.io|@apollo/[^/]+|@as-integrations/[^/]+)/';
/** The surface rules src/ and the blog and CMS share (sitemaps, robots, redirects, blog canonicals). */
const SHARED_SURFACE_RULES = '^src/surfaces/shared/';

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
      comment: 'db, store, observability, errors, providers, chain-events, fastify and other leaves sit below the services: they never import a service, an adapter or the composition root.',
      from: { path: '^src/', pathNot: ABOVE_LEAVES },
      to: { path: ABOVE_LEAVES },
    },
    {
      name: 'edge-sits-below-services',
      severity: 'error',
      comment: 'src/edge (who the caller is, what it may do) is shared by every transport and by services: it never imports a service, an adapter or the composition root.',
      from: { path: EDGE },
      to: { path: [SERVICES, ADAPTERS, ROOT] },
    },
    {
      name: 'edge-imports-no-transport-library',
      severity: 'error',
      comment: 'One edge for HTTP, graphql-ws and Socket.IO: it speaks in AppError and plain values, never in Fastify, graphql, type-graphql, graphql-ws, ws or Socket.IO types.',
      from: { path: EDGE },
      to: { path: TRANSPORT_LIBRARIES },
    },
    {
      name: 'services-never-import-adapters',
      severity: 'error',
      comment: 'A service never imports a resolver, a route, the gateway, the GraphQL wiring, the indexer or the jobs: adapters call services, not the reverse.',
      from: { path: SERVICES },
      to: { path: [ADAPTERS, ROOT] },
    },
    {
      name: 'services-import-no-transport-library',
      severity: 'error',
      comment: 'A service speaks in its models, AppError and plain values: it imports no transport library (Fastify, graphql, type-graphql, graphql-ws, ws, Socket.IO, Apollo) and not src/fastify, the Fastify app\'s plumbing. The transports adapt to the services.',
      from: { path: SERVICES },
      to: { path: [TRANSPORT_LIBRARIES, '^src/fastify/'] },
    },
    // Transports do not import each other. Three transports, each with its own folders: HTTP
    // (src/http: the Fastify app, REST routes, the console, the surfaces), GraphQL (src/graphql, its
    // pipeline and its HTTP binding, with src/resolvers, the schema's fields: one transport, so
    // resolvers importing src/graphql is within it) and the websocket gateway (src/gateway:
    // graphql-ws and Socket.IO). What two of them read lives below them: src/edge (caller,
    // authorization, rate limits, wire errors) and src/fastify (the one Fastify instance's route
    // hooks and drain). Two exceptions, each a composition, not a shortcut:
    {
      name: 'http-imports-no-other-transport',
      severity: 'error',
      comment:
        'src/http reaches GraphQL and the gateway only in src/http/app.ts, which builds the one Fastify app every transport mounts on (Apollo on /graphql, the cached answers, graphql-ws, Socket.IO): that file is composition. Nothing in src/http imports a resolver.',
      from: { path: '^src/http/', pathNot: '^src/http/app\\.ts$' },
      to: { path: '^src/(graphql|resolvers|gateway)/' },
    },
    {
      name: 'graphql-imports-no-other-transport',
      severity: 'error',
      comment: 'GraphQL (src/graphql, src/resolvers) never imports HTTP routes or helpers or the gateway: what it shares with them is in src/edge or src/fastify.',
      from: { path: '^src/(graphql|resolvers)/' },
      to: { path: '^src/(http|gateway)/' },
    },
    {
      name: 'gateway-imports-no-other-transport',
      severity: 'error',
      comment:
        'The gateway never imports src/http or a resolver. graphql-ws carries the GraphQL API over websockets, so it executes through the one policy (src/graphql/policy.ts: parse, limits, plan cache, context) and reads the broadcast extension it delivers (src/graphql/broadcast.ts); nothing else of src/graphql.',
      from: { path: '^src/gateway/' },
      to: { path: ['^src/(http|resolvers)/', '^src/graphql/'], pathNot: '^src/graphql/(policy|broadcast)\\.ts$' },
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
      name: 'another-domain-only-through-its-index',
      severity: 'error',
      comment: 'A domain (src/services/<domain>/) is reached by another domain only through its index.ts: its other files are its own business.',
      from: { path: '^src/services/([^/]+)/' },
      to: { path: '^src/services/[^/]+/.+', pathNot: ['^src/services/$1/', '^src/services/[^/]+/index\\.ts$'] },
    },
    {
      name: 'adapters-see-domains-only-through-their-index',
      severity: 'error',
      comment: 'Transports, the indexer, the jobs and the root see a domain only through its index.ts.',
      from: { path: '^src/', pathNot: '^src/services/' },
      to: { path: '^src/services/[^/]+/.+', pathNot: '^src/services/[^/]+/index\\.ts$' },
    },
    {
      name: 'scripts-see-domains-only-through-their-index',
      severity: 'error',
      comment:
        'scripts/ and bench/ are entry points like src/main.ts: they may compose (the runtime, a service with its dependencies, the leaves) but reach a domain only through src/services/<domain>/index.ts, its public face. Except the modules the reference servers load (bench/reference/, and bench/seed.ts for its constants): they measure a server without our stack, RSS included, so they take the pure helpers file by file instead of loading a whole domain through its index.',
      from: { path: '^(scripts|bench)/', pathNot: ['^bench/reference/', '^bench/seed\\.ts$'] },
      to: { path: '^src/services/[^/]+/.+', pathNot: '^src/services/[^/]+/index\\.ts$' },
    },
    {
      name: 'src-imports-no-tool',
      severity: 'error',
      comment: 'scripts/, bench/ and test/ build on src/, never the reverse: the API process ships and runs without them.',
      from: { path: '^src/' },
      to: { path: '^(scripts|bench|test)/' },
    },
    {
      name: 'only-the-root-composes',
      severity: 'error',
      comment: 'src/main.ts and src/runtime* are the only composition root: nothing in src imports them (tests and benches may).',
      from: { path: '^src/', pathNot: ROOT },
      to: { path: ROOT },
    },
    {
      name: 'no-cms-in-the-api-process',
      severity: 'error',
      comment:
        'Payload and Next live in the blog process only: src/ reads the blog and forwards the partner webhook over HTTP (services/blog), never importing cms/, blog/, payload, @payloadcms/* or next. src/runtime/blog.ts spawns that process by path and imports none of them either.',
      from: { path: '^src/', pathNot: '^src/runtime/blog\\.ts$' },
      to: { path: ['^cms/', '^blog/', '^node_modules/(payload|@payloadcms/[^/]+|next)/'] },
    },
    {
      name: 'cms-and-blog-do-not-import-src',
      severity: 'error',
      comment: 'cms/ and blog/ are separate apps: they may use the one configuration schema (src/config), the shared surface rules (src/surfaces/shared) and the one trace pipeline (src/observability/tracing-provider.ts, loaded by blog/instrumentation.ts when tracing is on), never other src internals.',
      from: { path: '^(cms|blog)/' },
      to: { path: '^src/', pathNot: ['^src/config/', SHARED_SURFACE_RULES, '^src/observability/tracing-provider\\.ts$'] },
    },
    {
      name: 'shared-surface-rules-stay-pure',
      severity: 'error',
      comment: 'src/surfaces/shared is imported by the API, the blog and the CMS alike: it builds on nothing in src above src/config, on neither app, and on no package but xmlbuilder2 (no framework, no Node built-in).',
      from: { path: SHARED_SURFACE_RULES },
      to: { path: ['^src/', '^(cms|blog)/', 'node_modules/'], pathNot: [SHARED_SURFACE_RULES, '^src/config/', 'node_modules/xmlbuilder2/'] },
    },
    {
      name: 'shared-surface-rules-use-no-built-in',
      severity: 'error',
      comment: 'The shared surface rules run inside Next.js route handlers too: no Node built-in modules.',
      from: { path: SHARED_SURFACE_RULES },
      to: { dependencyTypes: ['core'] },
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
