// node-postgres's parameter serialisation, used by the embedded database's one-call queries
// (pglite-one-trip.ts) so that both databases receive parameters as the same text, and its literal
// quoting (insert-values.ts).
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null; escapeLiteral(value: string): string };
  export default utils;
}
