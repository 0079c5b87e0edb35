/**
 * The path of the first object key written twice in a JSON text (`companies[0].name`), or null.
 * JSON.parse keeps the last of two values silently, where another parser (a proxy's, an audit
 * log's) may keep the first: a body whose two values claim one field is refused, as a query
 * parameter given twice is. The text is valid JSON (it parsed): one pass, no second parse but of
 * a key with escapes.
 */
export function duplicateKeyPath(text: string): string | null {
  const stack: Frame[] = [];
  let expectKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let j = i + 1;
      let escaped = false;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === BACKSLASH) {
          escaped = true;
          j += 2;
          continue;
        }
        if (d === QUOTE) break;
        j++;
      }
      const top = stack[stack.length - 1];
      if (top?.keys && expectKey) {
        const key: string = escaped ? JSON.parse(text.slice(i, j + 1)) : text.slice(i + 1, j);
        if (top.keys.has(key)) return pathOf(stack, key);
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = j;
    } else if (c === OPEN_OBJECT) {
      stack.push({ keys: new Set(), key: '', index: 0 });
      expectKey = true;
    } else if (c === OPEN_ARRAY) {
      stack.push({ keys: null, key: '', index: 0 });
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      stack.pop();
    } else if (c === COMMA) {
      const top = stack[stack.length - 1];
      if (top?.keys) expectKey = true;
      else if (top) top.index++;
    }
  }
  return null;
}

interface Frame {
  /** An object's keys so far; null for an array. */
  keys: Set<string> | null;
  /** An object's current key (whose value is being read). */
  key: string;
  /** An array's current index. */
  index: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

function pathOf(stack: Frame[], last: string): string {
  let out = '';
  const add = (key: string) => {
    out += out ? `.${key}` : key;
  };
  for (let i = 0; i < stack.length - 1; i++) {
    const f = stack[i];
    if (f.keys) add(f.key);
    else out += `[${f.index}]`;
  }
  add(last);
  return out;
}
