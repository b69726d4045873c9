export interface SystemInfo {
  status: 'ok';
  network: string;
  version: string;
  uptimeSeconds: number;
}

export interface SystemService {
  info(): SystemInfo;
}

export function createSystemService(opts: { network: string; version: string }): SystemService {
  const startedAt = Date.now();
  return {
    info: () => ({ status: 'ok', network: opts.network, version: opts.version, uptimeSeconds: (Date.now() - startedAt) / 1000 }),
  };
}
