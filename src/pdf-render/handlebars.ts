/**
 * The template language: Handlebars, in an instance of its own (no global helper or partial leaks
 * in), with formatting helpers only. It cannot reach files, the network or code: Handlebars has no
 * such statements, partials are not registered (`{{> x}}` fails the render), prototype properties
 * and methods are refused (the library's default since 4.6, kept), and `{{ }}` escapes HTML (the
 * template's own HTML is trusted, the case's data is not). A placeholder with no value renders empty
 * and is reported (`missing`).
 */
import type Handlebars from 'handlebars';
import { lazyRequire } from '../shared/lazy-module.ts';

// required by the first template compiled (src/shared/lazy-module.ts)
const handlebars = lazyRequire<typeof Handlebars>('handlebars');
let instance: typeof Handlebars | undefined;

/** Our own Handlebars instance with the formatting helpers, made on first use. */
function hb(): typeof Handlebars {
  if (instance) return instance;
  const created = handlebars().create();
  // `log` prints its arguments (case data) to the process's standard output, outside the service's
  // structured log: not a formatting helper, so not offered
  created.unregisterHelper('log');
  registerHelpers(created);
  instance = created;
  return created;
}

// the portal's eleven languages, each with the region its dates are written in (en-GB and fr-FR
// as before, so English and French output is unchanged); formatted by Intl (Node's full ICU)
const LOCALES: Record<string, string> = {
  en: 'en-GB',
  fr: 'fr-FR',
  de: 'de-DE',
  es: 'es-ES',
  it: 'it-IT',
  nl: 'nl-NL',
  pt: 'pt-PT',
  pl: 'pl-PL',
  hu: 'hu-HU',
  ja: 'ja-JP',
  ko: 'ko-KR',
};
const LONG: Intl.DateTimeFormatOptions = { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' };
const SHORT: Intl.DateTimeFormatOptions = {
  timeZone: 'UTC',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
};

function toDate(v: unknown): Date | null {
  if (v instanceof Date) return v;
  if (typeof v !== 'string' || !v) return null;
  // V8 rolls an impossible day over (2026-02-30 → 2026-03-02): a contract must not print another
  // real date, so a date part that is no calendar day is unreadable, like any other bad value
  const day = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(v);
  if (day) {
    const [y, m, dd] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const check = new Date(Date.UTC(y, m - 1, dd));
    if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== dd)
      return null;
  }
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Helpers' last argument is Handlebars' options object: plain arguments are the others. */
function args(all: unknown[]): unknown[] {
  return all.slice(0, -1);
}

// `{{formatDate date}}` 2026-11-23; `{{formatDate date "long"}}` 23 November 2026;
// `{{formatDate date "long" "fr"}}` 23 novembre 2026; `"short"` 23/11/2026. Always in UTC. Languages:
// en fr de es it nl pt pl hu ja ko (`{{formatDate date "long" "de"}}` 23. November 2026).
function registerHelpers(h: typeof Handlebars): void {
  h.registerHelper('formatDate', (...all: unknown[]) => {
    const [value, style, locale] = args(all);
    const d = toDate(value);
    if (!d) return '';
    const key = typeof locale === 'string' ? locale.toLowerCase() : 'en';
    // an unknown language prints in English, as before
    const loc = Object.hasOwn(LOCALES, key) ? LOCALES[key] : LOCALES.en;
    if (style === 'long') return new Intl.DateTimeFormat(loc, LONG).format(d);
    if (style === 'short') return new Intl.DateTimeFormat(loc, SHORT).format(d);
    return d.toISOString().slice(0, 10);
  });
  h.registerHelper('uppercase', (...all: unknown[]) => String(args(all)[0] ?? '').toUpperCase());
  h.registerHelper('lowercase', (...all: unknown[]) => String(args(all)[0] ?? '').toLowerCase());
  // `{{join signer.nationalities ", "}}`
  h.registerHelper('join', (...all: unknown[]) => {
    const [list, sep] = args(all);
    return Array.isArray(list)
      ? list.filter((x) => x != null && x !== '').join(typeof sep === 'string' ? sep : ', ')
      : '';
  });
}

export const TEMPLATE_HELPERS = ['formatDate', 'uppercase', 'lowercase', 'join'];

// Handlebars' own fallbacks, registered for its machinery: not helpers a template calls
const INTERNAL_HELPERS = new Set(['helperMissing', 'blockHelperMissing']);

const COMPILE_OPTIONS = { strict: false, noEscape: false, knownHelpersOnly: false } as const;

/** Null when the content compiles; else the parser's message (line and column included). */
export function templateSyntaxError(content: string): string | null {
  try {
    // precompile parses and compiles the whole template without running it
    hb().precompile(content, COMPILE_OPTIONS);
  } catch (err) {
    return (err instanceof Error ? err.message : String(err)).trim();
  }
  // valid syntax can still fail every render, in front of the signer: a partial ({{> name}}: none
  // exists) or a helper that does not exist (`{{shout case.name}}`); said now, to the template's writer
  const helpers = Object.keys(hb().helpers).filter((name) => !INTERNAL_HELPERS.has(name));
  const problem = unusable(hb().parse(content), new Set(helpers));
  if (!problem) return null;
  if (problem.kind === 'partial')
    return `partials are not supported ({{> ${problem.name}}}): write the HTML in the template itself`;
  if (problem.kind === 'arity') {
    const wanted = BUILTIN_ARITY[problem.name];
    return `${problem.name} needs exactly ${wanted === 1 ? 'one argument' : `${wanted} arguments`} (line ${problem.line}: ${problem.given} given), e.g. ${BUILTIN_EXAMPLE[problem.name]}`;
  }
  return `there is no helper named ${problem.name} (available: ${helpers.sort().join(', ')})`;
}

// Handlebars' own helpers throw on every render when called with another number of arguments
// (`{{#if}}`, `{{#each}}`, `{{lookup case}}`): said when the template is saved, not in front of a signer
const BUILTIN_ARITY: Record<string, number> = { if: 1, unless: 1, with: 1, each: 1, lookup: 2 };
const BUILTIN_EXAMPLE: Record<string, string> = {
  if: '{{#if company.name}}...{{/if}}',
  unless: '{{#unless company.name}}...{{/unless}}',
  with: '{{#with company}}{{name}}{{/with}}',
  each: '{{#each companies}}{{name}}{{/each}}',
  lookup: '{{lookup company "name"}}',
};

const PARTIAL_NODES = new Set(['PartialStatement', 'PartialBlockStatement', 'Decorator', 'DecoratorBlock']);
const CALL_NODES = new Set(['MustacheStatement', 'BlockStatement', 'SubExpression']);

interface AstNode {
  type?: string;
  loc?: { start?: { line?: number } };
  name?: { original?: unknown };
  path?: { type?: string; parts?: string[]; data?: boolean };
  params?: unknown[];
  hash?: unknown;
}

type Unusable =
  | { kind: 'partial' | 'helper'; name: string }
  | { kind: 'arity'; name: string; given: number; line: number };

/**
 * The first partial, call of a helper not in `known` (a name given arguments, or one of Handlebars'
 * internal fallbacks called by name), or built-in helper given the wrong number of arguments, of a
 * parsed template.
 */
function unusable(node: unknown, known: Set<string>): Unusable | null {
  if (!node || typeof node !== 'object') return null;
  const n = node as AstNode;
  if (n.type && PARTIAL_NODES.has(n.type))
    return { kind: 'partial', name: String(n.name?.original ?? 'partial') };
  if (n.type && CALL_NODES.has(n.type) && n.path?.type === 'PathExpression' && !n.path.data) {
    const name = n.path.parts?.length === 1 ? n.path.parts[0] : undefined;
    const given = n.params?.length ?? 0;
    if (name && INTERNAL_HELPERS.has(name)) return { kind: 'helper', name };
    if (name && Object.hasOwn(BUILTIN_ARITY, name) && given !== BUILTIN_ARITY[name])
      return { kind: 'arity', name, given, line: n.loc?.start?.line ?? 1 };
    if (name && (given > 0 || n.hash) && !known.has(name)) return { kind: 'helper', name };
  }
  for (const [key, value] of Object.entries(n)) {
    if (key === 'loc') continue;
    for (const child of Array.isArray(value) ? value : [value]) {
      const found = unusable(child, known);
      if (found) return found;
    }
  }
  return null;
}

// read by Handlebars' own machinery on values, not placeholders of the template
const INTERNAL_KEYS = new Set(['toHTML', 'toString', 'valueOf', 'toJSON', 'constructor', 'length']);

/** Absent, null, an empty string or an empty list (`{{join signer.nationalities ", "}}` prints nothing). */
function hasNoValue(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/**
 * Wraps the context's objects so every read of a placeholder that has no value (absent, null,
 * empty, an empty list) is noted with its path (`company.registration_number`; items of a list:
 * `companies[].name`).
 */
function tracked(value: unknown, path: string, missing: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => tracked(v, `${path}[]`, missing));
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const obj = value as Record<string, unknown>;
  const wrapped: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) wrapped[k] = tracked(v, path ? `${path}.${k}` : k, missing);
  return new Proxy(wrapped, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (typeof key === 'string' && !INTERNAL_KEYS.has(key) && hasNoValue(v)) {
        if (Object.hasOwn(target, key) || !(key in target)) missing.add(path ? `${path}.${key}` : key);
      }
      return v;
    },
  });
}

/** Runs the template on the context: the HTML and the placeholders read without a value. */
export function renderTemplate(
  content: string,
  context: Record<string, unknown>,
): { html: string; missing: string[] } {
  const template = hb().compile(content, COMPILE_OPTIONS);
  const missing = new Set<string>();
  const html = template(tracked(context, '', missing), {
    allowProtoPropertiesByDefault: false,
    allowProtoMethodsByDefault: false,
  });
  return { html, missing: [...missing].sort() };
}
