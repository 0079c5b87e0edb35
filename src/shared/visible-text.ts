/**
 * The pattern of a text that shows something: at least one character that is neither white space
 * nor an invisible one, a format character (`\p{Cf}`: zero-width space U+200B, zero-width joiners,
 * word joiner U+2060, soft hyphen, the BOM, direction marks...) or another default-ignorable code
 * point (`\p{Default_Ignorable_Code_Point}`: combining grapheme joiner U+034F, Hangul fillers,
 * variation selectors, tag characters). A name or comment of such characters passes `trim()`, then
 * names a case by something nobody can read (walk: a review comment "\u200b" satisfied the
 * workspace's mandatory comment). Unicode mode (`u` flag), as Ajv compiles schema patterns.
 */
export const VISIBLE_TEXT = '[^\\s\\p{Cf}\\p{Default_Ignorable_Code_Point}]';
const VISIBLE = new RegExp(VISIBLE_TEXT, 'u');

/** Whether a text shows anything (VISIBLE_TEXT). */
export const hasVisibleText = (v: string | null | undefined): v is string =>
  v !== undefined && v !== null && VISIBLE.test(v);
