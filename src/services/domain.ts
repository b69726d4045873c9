import type { Registry } from 'prom-client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Bus, SharedStore } from '../store';
import type { Hooks } from './hooks';
import type { Logger } from '../observability/logger';

/** What every domain is created from: the process's shared infrastructure (the settings are narrowed per domain). */
export interface DomainContext<Settings extends keyof Config = keyof Config> {
  config: Pick<Config, Settings>;
  logger: Logger;
  db: Db;
  store: SharedStore;
  /** The one pub/sub (src/store/bus.ts): activity and room events, across replicas. */
  bus: Bus;
  /** Domain events (chainIndexed, walletLoggedIn): emitters never wait for the domains subscribed. */
  hooks: Hooks;
  /** Test seam: the clock of the services that read one (auth, quests). */
  now?: () => Date;
  version: string;
  /** Per-process cache lifetime of leaderboard reads (0 disables; benchmarks). */
  leaderboardCacheTtlMs?: number;
  /** The process's metrics registry (/metrics) for services that report series. */
  registry?: Registry;
}

/** Any domain, whatever it creates (the shape createServices iterates). */
export interface AnyDomain {
  readonly name: string;
  readonly settings: readonly (keyof Config)[];
  readonly needs: readonly AnyDomain[];
  create(ctx: DomainContext<never>, needs: never): object | Promise<object>;
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The `Services` entries the given domains create, merged (services.quests, services.chat, …). */
export type ServicesOf<Ds extends readonly AnyDomain[]> = UnionToIntersection<Awaited<ReturnType<Ds[number]['create']>>>;

/** Every setting section the given domains read. */
export type SettingsOf<Ds extends readonly AnyDomain[]> = Ds[number]['settings'][number];

/**
 * One domain's service-level module: its name (the key its GraphQL resolvers, REST routes and
 * jobs are registered under), the setting sections it reads, the domains it needs (created
 * before it; their services are handed to `create`) and how its services are created.
 */
export interface Domain<Name extends string, Out extends object, Settings extends keyof Config, Needs extends readonly AnyDomain[]> {
  readonly name: Name;
  readonly settings: readonly Settings[];
  readonly needs: Needs;
  create(ctx: DomainContext<Settings>, needs: ServicesOf<Needs>): Out | Promise<Out>;
}

/** Declares a domain; the type parameters are inferred (see the entries in src/services/domains.ts). */
export function defineDomain<const Name extends string, Out extends object, const Settings extends keyof Config = never, const Needs extends readonly AnyDomain[] = []>(
  domain: Domain<Name, Out, Settings, Needs>,
): Domain<Name, Out, Settings, Needs> {
  return domain;
}
