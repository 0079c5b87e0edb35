// node-postgres's parameter serialisation, used by the embedded database's one-call queries
// (pglite-one-trip.ts) so that both databases receive parameters as the same text.
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
