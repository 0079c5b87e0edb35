/**
 * Apostrophes as people type them: ASCII, typographic (’ ‘), modifier letter (ʼ), grave, acute.
 * Global: for `replace` (it keeps no state there).
 */
export const APOSTROPHES = /['’‘ʼ`´]/g;
