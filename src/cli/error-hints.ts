/**
 * What a newcomer does next about the operational failures a command meets first: a port taken, a
 * database that does not exist, a server that refuses connections. Said on the line after the
 * error's own (which names the address or the database).
 */
export function errorHint(err: unknown): string | null {
  const e = err as { code?: unknown; port?: unknown } | null;
  switch (e?.code) {
    case 'EADDRINUSE':
      return `Another process listens on that port (another vericase?): stop it, or start on a free port with PORT=${typeof e.port === 'number' ? e.port + 1 : 3001}.`;
    case 'EACCES':
      return 'Ports below 1024 need privileges: use PORT=3000 or another port from 1024 up.';
    // PostgreSQL's invalid_catalog_name
    case '3D000':
      return 'Create it (createdb <name>, or CREATE DATABASE) or point DATABASE_URL at a database that exists.';
    case 'ECONNREFUSED':
      return 'Nothing answers at that address: start PostgreSQL, check the host and port of DATABASE_URL, or leave DATABASE_URL unset to run on the embedded database.';
    default:
      return null;
  }
}
