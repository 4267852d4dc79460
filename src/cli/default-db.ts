// The store `--db` names when not given, in its own file so that a command can name it without
// loading options.ts (which loads all of core).

/** The store `--db` names when not given: MINDSCOPE_DB (a SQLite file or a postgres:// URL), else mindscope.db. */
export const DEFAULT_DB = process.env.MINDSCOPE_DB || 'mindscope.db';
