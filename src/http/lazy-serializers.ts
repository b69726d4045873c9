import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * Fastify's own serializer factory, compiling each route's response schema on that route's first
 * reply with that status instead of at start: compiling all of them (fast-json-stringify plus its
 * schema check) was about a quarter of a second of every API start, mostly for routes a replica
 * may never answer. Output and errors are the compiled serializer's own. The schema is copied
 * when the route is registered (about 2.5 ms for every route), so a serializer compiled late is
 * the one an eager compile would have made even if a schema object is edited in place afterwards
 * (nothing here does today: no route schema differs after the OpenAPI document is built).
 */
export function lazySerializerFactory(): SerializerFactory {
  const compileEagerly = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = compileEagerly(externalSchemas, options);
    return (route) => {
      let declared: typeof route;
      try {
        declared = { ...route, schema: structuredClone(route.schema) };
      } catch {
        return compile(route); // a schema holding functions: compiled now, as Fastify would
      }
      let serialize: ReturnType<typeof compile> | undefined;
      return (doc) => (serialize ??= compile(declared))(doc);
    };
  };
}
