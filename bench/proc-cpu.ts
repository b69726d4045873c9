// CPU time of other processes on this machine, read from Linux's /proc: the PostgreSQL backends of
// one database and the chain's child process. Elsewhere (or for a remote server) it reads 0.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function cpuOfPidText(pid: string): number {
  try {
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Milliseconds of CPU used so far by the processes whose command line `matches`. */
export function cpuOfProcesses(matches: (commandLine: string) => boolean): number {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  let ms = 0;
  for (const pid of pids) {
    let commandLine: string;
    try {
      commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (matches(commandLine)) ms += cpuOfPidText(pid);
  }
  return ms;
}

/** The backends serving `database`: PostgreSQL titles them `postgres: [<cluster>: ]<user> <database> <client> <state>`. */
export const backendsOf =
  (database: string) =>
  (commandLine: string): boolean =>
    /^postgres: (?:[^ :]+: )?\S+ (\S+) /.exec(commandLine)?.[1] === database;

/** Milliseconds of CPU used so far by one process. */
export const cpuOfPid = (pid: number | undefined): number => (pid === undefined ? 0 : cpuOfPidText(String(pid)));
