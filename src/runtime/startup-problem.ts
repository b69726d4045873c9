/**
 * A start-up failure whose cause is known and outside this process (a port taken, a database that
 * does not answer, a data directory another process holds): the process prints `message`, which
 * names the setting and the usual fix, without a stack trace, and exits 69 (EX_UNAVAILABLE).
 */
export class StartupProblem extends Error {
  override readonly name = 'StartupProblem';
}
