export interface LogLine {
  msg?: string;
  pid?: number;
  supervised?: string;
  [key: string]: unknown;
}

/** The JSON log lines of a process's output (a child's own plain-text output may be interleaved). */
export function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as LogLine];
      } catch {
        return [];
      }
    });
}
