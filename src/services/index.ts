import type { Config } from '../config';
import { createHooks, type Hooks } from './hooks';
import { createOperationLimits, type OperationLimits } from './operation-limits';
import type { AnyDomain, DomainContext, ServicesOf, SettingsOf } from './domain';
import { domains, type DomainName } from './domains';

export { domains, type DomainName } from './domains';

/** Everything the adapters (resolvers, REST routes, gateway, indexer, jobs) may call: what the registered domains create. */
export type Services = ServicesOf<typeof domains> & {
  /** Domain events (chainIndexed, walletLoggedIn): the indexer and auth emit, domains subscribe. */
  hooks: Hooks;
  /** The declared operations' own rate limits (src/services/operation-limits.ts), charged by every transport. */
  limits: OperationLimits;
};

export interface ServiceDeps extends Omit<DomainContext, 'config' | 'hooks'> {
  /** The setting sections the registered domains read. */
  config: Pick<Config, SettingsOf<typeof domains>>;
}

/** Creates every registered domain in list order, handing each the services of the domains it needs; what each created, by name. */
export async function createDomains(deps: ServiceDeps, hooks: Hooks = createHooks(deps.logger)): Promise<Map<DomainName, object>> {
  const ctx = { ...deps, hooks } as DomainContext<never>;
  const created = new Map<AnyDomain, object>();
  const owner = new Map<string, string>();
  for (const domain of domains as readonly AnyDomain[]) {
    const missing = domain.needs.filter((need) => !created.has(need)).map((need) => need.name);
    if (missing.length) throw new Error(`domain ${domain.name} is listed before ${missing.join(', ')}, which it needs (src/services/domains.ts)`);
    const services = await domain.create(ctx, Object.assign({}, ...domain.needs.map((need) => created.get(need))) as never);
    for (const key of Object.keys(services)) {
      if (owner.has(key)) throw new Error(`domains ${owner.get(key)} and ${domain.name} both create services.${key}`);
      owner.set(key, domain.name);
    }
    created.set(domain, services);
  }
  return new Map([...created].map(([domain, services]) => [domain.name as DomainName, services]));
}

/** The services of every registered domain, merged into the one object the adapters receive. */
export async function createServices(deps: ServiceDeps): Promise<Services> {
  const hooks = createHooks(deps.logger);
  const limits = createOperationLimits({ store: deps.store, settings: deps.config });
  return Object.assign({ hooks, limits }, ...(await createDomains(deps, hooks)).values()) as Services;
}
