// Imported first by src/main.ts, before anything that needs Node 22: one clear line instead of a
// syntax or module error deep in a dependency. Imports nothing.

/** The oldest Node the backend runs on (package.json `engines`). */
export const REQUIRED_NODE = { major: 22, minor: 12 } as const;

/** Null when `version` (process.versions.node) is new enough, else the line to print. */
export function nodeVersionProblem(version: string): string | null {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > REQUIRED_NODE.major || (major === REQUIRED_NODE.major && minor >= REQUIRED_NODE.minor)) return null;
  return `Node ${version} found; this backend requires Node ${REQUIRED_NODE.major}.${REQUIRED_NODE.minor}+. Run it with \`npm start\` (it uses the node@22 dependency from node_modules) or install Node 22 (\`nvm install\` reads .nvmrc).`;
}

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(78);
}
