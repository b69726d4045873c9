// `migrate dev` support. The wasm engine's evaluateDataLoss/createMigration replay the history on
// the main connection and refuse ("PostgreSQL shadow DB must be provided through an external
// factory"); its `diff` from a migrations directory does use the adapter's shadow database, so
// both are computed from that diff. Data-loss warnings are therefore not reported.
type Engine = Record<string, (p: unknown) => Promise<unknown>>;

interface MigrationInput {
  migrationsList: unknown;
  schema: { files: unknown[] };
  filters: unknown;
  draft?: boolean;
  migrationName?: string;
}

function statements(script: string): string[] {
  return script
    .split('\n')
    .filter((l) => !l.trim().startsWith('--'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter(Boolean);
}

async function pendingScript(engine: Engine, input: MigrationInput): Promise<string> {
  const out = (await engine.diff({
    from: { tag: 'migrations', ...(input.migrationsList as object) },
    to: { tag: 'schemaDatamodel', files: input.schema.files },
    script: true,
    exitCode: null,
    filters: input.filters,
  })) as { stdout?: string | null };
  return out.stdout ?? '';
}

function timestamp(d = new Date()): string {
  return d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

export async function evaluateDataLoss(engine: Engine, input: MigrationInput): Promise<unknown> {
  const steps = statements(await pendingScript(engine, input));
  return { migrationSteps: steps.length, unexecutableSteps: [], warnings: [] };
}

export async function createMigration(engine: Engine, input: MigrationInput): Promise<unknown> {
  const script = await pendingScript(engine, input);
  const empty = statements(script).length === 0;
  const name = (input.migrationName ?? '').replace(/[^A-Za-z0-9_]+/g, '_');
  return {
    connectorType: 'postgresql',
    generatedMigrationName: `${timestamp()}${name ? `_${name}` : ''}`,
    migrationScript: empty && !input.draft ? null : empty ? '-- This is an empty migration.' : script,
    extension: 'sql',
  };
}
