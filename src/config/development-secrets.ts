import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './index';

/** The secrets a development platform generates when they are unset, and the file each is kept in. */
const GENERATED = [
  { name: 'WEBHOOK_SECRET', file: '.webhook-secret', key: 'webhookSecret' },
  { name: 'BLOG_REVALIDATION_SECRET', file: '.revalidation-secret', key: 'revalidationSecret' },
] as const;

export interface DevelopmentSecrets {
  config: Config;
  /** Each secret generated (or read back from an earlier start) and the file holding it. */
  generated: Array<{ name: (typeof GENERATED)[number]['name']; file: string }>;
}

/**
 * Outside mainnet and NODE_ENV=production, an unset WEBHOOK_SECRET or BLOG_REVALIDATION_SECRET
 * is generated once into `${DATA_DIR}/<file>` (mode 600) and read back on later starts, so the
 * webhook and the blog's refresh work on defaults and the partner's secret survives restarts.
 * The values join `secretValues` (scrubbed from logs) and `sourceEnv` (the blog process gets
 * them), and this process's environment, which the CMS opened in this process reads its settings from.
 */
export function withDevelopmentSecrets(config: Config): DevelopmentSecrets {
  if (config.network === 'mainnet' || config.nodeEnv === 'production') return { config, generated: [] };
  const blog = { ...config.blog };
  const sourceEnv = { ...config.sourceEnv };
  const secretValues = [...config.secretValues];
  const generated: DevelopmentSecrets['generated'] = [];
  for (const { name, file, key } of GENERATED) {
    if (blog[key]) continue;
    const where = path.resolve(config.dataDir, file);
    const value = readOrCreate(where);
    blog[key] = value;
    sourceEnv[name] = value;
    process.env[name] = value;
    secretValues.push(value);
    generated.push({ name, file: where });
  }
  return { config: { ...config, blog, sourceEnv, secretValues }, generated };
}

function readOrCreate(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(24).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readFileSync(file, 'utf8').trim();
}
