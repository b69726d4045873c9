import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './index';

/** The blog's secrets a development platform generates when they are unset, and the file each is kept in. */
const GENERATED_BLOG = [
  { name: 'WEBHOOK_SECRET', file: '.webhook-secret', key: 'webhookSecret' },
  { name: 'BLOG_REVALIDATION_SECRET', file: '.revalidation-secret', key: 'revalidationSecret' },
] as const;
const JWT_FILE = '.jwt-secret';

type GeneratedName = (typeof GENERATED_BLOG)[number]['name'] | 'JWT_SECRET';

export interface DevelopmentSecrets {
  config: Config;
  /** Each secret generated (or read back from an earlier start) and the file holding it. */
  generated: Array<{ name: GeneratedName; file: string }>;
}

/**
 * Outside mainnet and NODE_ENV=production, an unset WEBHOOK_SECRET, BLOG_REVALIDATION_SECRET or
 * JWT_SECRET is generated once into `${DATA_DIR}/<file>` (mode 600) and read back on later starts,
 * so the webhook and the blog's refresh work on defaults, the partner's secret survives restarts,
 * tokens survive a restart and only this data directory's instances accept them (no signing key
 * in the source). The values join `secretValues` (scrubbed from logs); the blog's two also join
 * `sourceEnv` (the blog process gets them) and this process's environment (a script that opens
 * the CMS in its own process reads its settings from there).
 */
export function withDevelopmentSecrets(config: Config): DevelopmentSecrets {
  if (config.network === 'mainnet' || config.nodeEnv === 'production') return { config, generated: [] };
  const blog = { ...config.blog };
  let jwt = config.jwt;
  const sourceEnv = { ...config.sourceEnv };
  const secretValues = [...config.secretValues];
  const generated: DevelopmentSecrets['generated'] = [];
  if (jwt.generated) {
    const file = path.resolve(config.dataDir, JWT_FILE);
    jwt = { ...jwt, secret: readOrCreate(file) };
    secretValues.push(jwt.secret);
    generated.push({ name: 'JWT_SECRET', file });
  }
  for (const { name, file, key } of GENERATED_BLOG) {
    if (blog[key]) continue;
    const where = path.resolve(config.dataDir, file);
    const value = readOrCreate(where);
    blog[key] = value;
    sourceEnv[name] = value;
    process.env[name] = value;
    secretValues.push(value);
    generated.push({ name, file: where });
  }
  return { config: { ...config, jwt, blog, sourceEnv, secretValues }, generated };
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
