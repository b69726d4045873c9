import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';

type RouteHookName = 'preValidation' | 'preHandler' | 'onSend' | 'onResponse';
/** One hook of that kind (a route's option takes one or a list). */
type RouteHook<K extends RouteHookName> = Extract<NonNullable<RouteOptions[K]>, (...args: never[]) => unknown>;

/** The HTTP methods a route (as an onRoute hook sees it) answers. */
export function routeMethods(route: Pick<RouteOptions, 'method'>): string[] {
  return Array.isArray(route.method) ? route.method : [route.method];
}

/**
 * Adds a hook to one route from an onRoute hook: a check only some routes need costs the others
 * nothing (Fastify skips a hook kind a route has none of). `first` runs it before the route's own
 * hooks of that kind, where an app-wide hook would have run.
 */
export function addRouteHook<K extends RouteHookName>(route: RouteOptions, name: K, hook: RouteHook<K>, at: 'first' | 'last' = 'last'): void {
  const current = route[name] as unknown;
  const own = current === undefined || current === null ? [] : Array.isArray(current) ? current : [current];
  (route as unknown as Record<string, unknown>)[name] = at === 'first' ? [hook, ...own] : [...own, hook];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** `routeOptions` read once for this request (src/fastify/route-hooks.ts `routeOf`). */
    routeSnapshot: FastifyRequest['routeOptions'] | null;
  }
}

/** Decorates requests for `routeOf`; the app calls it once, before the hooks that read it. */
export function registerRouteSnapshot(app: FastifyInstance): void {
  app.decorateRequest('routeSnapshot', null);
}

/**
 * The request's route options, built once per request: Fastify's `request.routeOptions` is a
 * getter that builds a new dozen-field object on each read, and several hooks read it. Built again
 * when the request has moved to the not-found handler since (`reply.callNotFound()`): `is404` reads
 * the current route without building anything.
 */
export function routeOf(request: FastifyRequest): FastifyRequest['routeOptions'] {
  const snapshot = request.routeSnapshot;
  if (snapshot && (snapshot.url === undefined) === request.is404) return snapshot;
  return (request.routeSnapshot = request.routeOptions);
}
