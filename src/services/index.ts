import type { Config } from '../config';
import { createFanout } from '../store/fanout';
import type { AnyDomain, DomainContext, ServicesOf, SettingsOf } from './domain';
import { domains } from './domains';

export { domains, type DomainName } from './domains';

/** Everything the adapters (resolvers, REST routes, gateway, indexer, jobs) may call: what the registered domains create. */
export type Services = ServicesOf<typeof domains>;

export interface ServiceDeps extends Omit<DomainContext, 'config' | 'fanout'> {
  /** The setting sections the registered domains read. */
  config: Pick<Config, SettingsOf<typeof domains>>;
}

/** Creates every registered domain in list order, handing each the services of the domains it needs. */
export async function createServices(deps: ServiceDeps): Promise<Services> {
  const ctx = { ...deps, fanout: createFanout(deps.store, deps.logger) } as DomainContext<never>;
  const created = new Map<AnyDomain, object>();
  for (const domain of domains as readonly AnyDomain[]) {
    const missing = domain.needs.filter((need) => !created.has(need)).map((need) => need.name);
    if (missing.length) throw new Error(`domain ${domain.name} is listed before ${missing.join(', ')}, which it needs (src/services/domains.ts)`);
    const needed = Object.assign({}, ...domain.needs.map((need) => created.get(need)));
    created.set(domain, await domain.create(ctx, needed as never));
  }
  return Object.assign({}, ...created.values()) as Services;
}
