import { registerEnumType } from 'type-graphql';

/** A GraphQL enum over a domain model's values: each value under its upper-case name (`social_network` → SOCIAL_NETWORK). */
export function modelEnum<const V extends string>(model: { readonly options: readonly V[] }, config: { name: string; description: string }): { [K in V as Uppercase<K>]: K } {
  const values = Object.fromEntries(model.options.map((value) => [value.toUpperCase(), value])) as { [K in V as Uppercase<K>]: K };
  registerEnumType(values, config);
  return values;
}

/** A model's values as prose for a description: `ok, failed or skipped` (`asEnum`: as the GraphQL enum names them, upper case). */
export function spelledOut(model: { readonly options: readonly string[] }, opts: { asEnum?: boolean } = {}): string {
  const values = model.options.map((value) => (opts.asEnum ? value.toUpperCase() : value));
  const last = values.pop();
  return values.length ? `${values.join(', ')} or ${last}` : (last ?? '');
}
