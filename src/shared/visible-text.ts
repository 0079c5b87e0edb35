/**
 * The pattern of a text that shows something: at least one character that is neither white space
 * nor an invisible one: the default-ignorable code points of the Basic Multilingual Plane (soft
 * hyphen U+00AD, combining grapheme joiner U+034F, Arabic letter mark U+061C, Hangul fillers,
 * Mongolian and Khmer format marks, zero-width space and joiners U+200B-U+200F, bidi embeddings
 * U+202A-U+202E, word joiner and invisible operators U+2060-U+206F, variation selectors, the BOM,
 * U+FFF0-U+FFFB). A name or comment of such characters passes `trim()`, then names a case by
 * something nobody can read (walk: a review comment "\u200b" satisfied the workspace's mandatory
 * comment).
 *
 * Spelled as `\uXXXX` ranges, not Unicode properties (`\p{Cf}`): the pattern is published in the
 * OpenAPI document, and a generated client compiles it with its own regex engine (Python's `re` has
 * no `\p`, a pydantic model with `\p{...}` failed on every value). Astral invisibles (tag
 * characters) are not in it: rare, and a pattern that spells them needs surrogates or `u` mode.
 */
export const VISIBLE_TEXT =
  '[^\\s\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFFB]';
const VISIBLE = new RegExp(VISIBLE_TEXT);

/** Whether a text shows anything (VISIBLE_TEXT). */
export const hasVisibleText = (v: string | null | undefined): v is string =>
  v !== undefined && v !== null && VISIBLE.test(v);
