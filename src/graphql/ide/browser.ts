// The GraphiQL page's script, bundled for the browser by ./bundle.ts (never imported by the server).
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import 'graphiql/style.css';

// The page is served on the GraphQL path itself: HTTP and graphql-ws share it.
const endpoint = new URL(location.pathname, location.origin);
const subscriptionUrl = new URL(endpoint);
subscriptionUrl.protocol = endpoint.protocol === 'https:' ? 'wss:' : 'ws:';

// The toolkit sends the headers editor's values as the graphql-ws connectionParams too, so
// `{ "Authorization": "Bearer …" }` authenticates queries and subscriptions alike.
const fetcher = createGraphiQLFetcher({ url: endpoint.href, subscriptionUrl: subscriptionUrl.href });

createRoot(document.getElementById('graphiql')!).render(createElement(GraphiQL, { fetcher, shouldPersistHeaders: true }));
