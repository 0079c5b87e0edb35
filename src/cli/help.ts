export const COMMANDS_HELP = `vericase: identity and business verification service

Usage: vericase <command>

  serve                              run the API (and the workers) on PORT
  worker                             run the background workers only
  migrate                            migrate the database to the latest version
  workspaces create --name NAME      create a workspace; prints it with a new API key (JSON)
  keys create --workspace ID         create another API key for a workspace (JSON)
  keys revoke --id KEY_ID            revoke a key (or --key API_KEY)
  data pull [--keep N]               download the official sanctions lists (DATA_DIR/reference/current)
  data status                        show the pulled list version and verify its checksums
  db backup --out FILE [--force]     back up the database and the uploaded files (server stopped
                                     for the embedded database; pg_dump for PostgreSQL)
  db restore --in FILE [--force]     restore a backup into an empty DATA_DIR or database

Configuration is read from the environment: see the README.
`;
