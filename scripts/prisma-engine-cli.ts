// One-shot `schema-engine --datasource <json> cli <command>` calls the Prisma CLI makes before
// `migrate dev` (can-connect-to-database, create-database, drop-database), answered with pg.
import pg from 'pg';
import { discretePoolConfig } from './prisma-engine-adapter';

class EngineCliError extends Error {
  constructor(
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

async function withClient<T>(config: pg.ClientConfig, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function clientConfig(url: string): pg.ClientConfig & { database: string } {
  const { Client: _ignored, max: _max, ...rest } = discretePoolConfig(url);
  return rest as pg.ClientConfig & { database: string };
}

async function run(command: string, url: string): Promise<void> {
  const cfg = clientConfig(url);
  const admin = { ...cfg, database: 'postgres' };
  const quoted = `"${cfg.database.replace(/"/g, '""')}"`;
  switch (command) {
    case 'can-connect-to-database':
      try {
        await withClient(cfg, async (c) => void (await c.query('SELECT 1')));
      } catch (e) {
        if ((e as pg.DatabaseError).code === '3D000') {
          throw new EngineCliError('P1003', `Database \`${cfg.database}\` does not exist on the database server`);
        }
        throw new EngineCliError('P1001', `Can't reach database server: ${(e as Error).message}`);
      }
      return;
    case 'create-database':
      await withClient(admin, async (c) => void (await c.query(`CREATE DATABASE ${quoted}`)));
      return;
    case 'drop-database':
      await withClient(admin, async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`)));
      return;
    default:
      throw new EngineCliError('P1000', `unsupported schema-engine cli command: ${command}`);
  }
}

export async function runEngineCli(command: string, datasource: { url?: string } | undefined): Promise<number> {
  try {
    if (!datasource?.url) throw new EngineCliError('P1012', 'no datasource url given');
    await run(command, datasource.url);
    return 0;
  } catch (e) {
    const errorCode = e instanceof EngineCliError ? e.errorCode : 'P1000';
    const line = { level: 'ERROR', target: 'schema_engine::logger', fields: { error_code: errorCode, message: (e as Error).message } };
    process.stderr.write(JSON.stringify(line) + '\n');
    return 1;
  }
}
