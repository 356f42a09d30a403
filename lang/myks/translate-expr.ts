/**
 * One Starlark expression as KCL text. Starlark and KCL share literals,
 * operators, comprehensions and most methods, so the text is kept as written
 * and only names are rewritten: a name the caller knows (a prelude variable,
 * a library lambda, `env_data`) becomes its KCL reference, a name the
 * expression binds itself (a comprehension variable, a loop variable or
 * lambda parameter the caller passes) stays. Any other name, a keyword
 * argument or a triple-quoted string means the expression is not translated.
 * Whether the result means the same is not decided here: the caller proves it
 * by evaluation.
 */
const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'if', 'else', 'for', 'True', 'False', 'None']);
export const BUILTINS = new Set([
  'len',
  'str',
  'int',
  'float',
  'bool',
  'sorted',
  'min',
  'max',
  'abs',
  'range',
  'list',
  'dict',
  'any',
  'all',
  'zip',
]);

/**
 * Starlark expression text → KCL text, or undefined when outside the shared
 * subset. `refs` maps a known name to its KCL reference (a set: each name `n`
 * is the prelude variable `_n`); `bound` are names the enclosing construct binds.
 */
export function toKclExpr(
  src: string,
  refs: ReadonlySet<string> | ReadonlyMap<string, string>,
  bound: ReadonlySet<string> = new Set(),
): string | undefined {
  const ref = (id: string): string | undefined =>
    refs instanceof Map ? refs.get(id) : (refs as ReadonlySet<string>).has(id) ? `_${id}` : undefined;
  let out = '';
  let i = 0;
  const own = new Set(bound);
  // names bound by comprehensions (`for x in`) are the expression's own
  for (const m of src.matchAll(/\bfor\s+([A-Za-z_]\w*)(?:\s*,\s*([A-Za-z_]\w*))?\s+in\b/g)) {
    own.add(m[1]!);
    if (m[2]) own.add(m[2]);
  }
  while (i < src.length) {
    const c = src[i]!;
    if (c === '"' || c === "'") {
      if (src.startsWith(c.repeat(3), i)) return undefined;
      let j = i + 1;
      while (j < src.length && src[j] !== c && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length || src[j] !== c) return undefined;
      const body = src.slice(i + 1, j);
      if (body.includes('$')) return undefined;
      out += `"${c === "'" ? body.replace(/\\'/g, "'").replace(/"/g, '\\"') : body}"`;
      i = j + 1;
      continue;
    }
    if (c === '#' || (c === '=' && src[i + 1] !== '=' && !'!<>='.includes(src[i - 1] ?? ''))) return undefined;
    const m = /^[A-Za-z_]\w*/.exec(src.slice(i));
    if (m) {
      const id = m[0];
      const afterDot = /\.\s*$/.test(out) && !/\d\.\s*$/.test(out);
      const r = afterDot || KEYWORDS.has(id) || own.has(id) ? id : ref(id);
      if (r !== undefined) out += r;
      else if (BUILTINS.has(id)) out += id;
      else return undefined;
      i += id.length;
      continue;
    }
    // a number's digits (and exponent) are not names
    const num = /^\d[\w.]*/.exec(src.slice(i));
    if (num) {
      out += num[0];
      i += num[0].length;
      continue;
    }
    out += c;
    i++;
  }
  return out.trim();
}

/** The `_name` and `lib.name` references a KCL expression reads. */
export function readsOf(kcl: string, pkg: string): { vars: string[]; lambdas: string[] } {
  const vars = [...kcl.matchAll(/(?<![\w.])_([A-Za-z_]\w*)/g)].map((m) => m[1]!);
  const lambdas = [...kcl.matchAll(new RegExp(`(?<![\\w.])${pkg}\\.([A-Za-z_]\\w*)`, 'g'))].map((m) => m[1]!);
  return { vars, lambdas };
}

/**
 * True when the brackets that open `text` close at its last character, so it is one group:
 * `[a] + [b]` and `(a) + (b)` start and end with brackets without being one. Strings are skipped.
 */
export function oneGroup(text: string): boolean {
  let d = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    } else if ('([{'.includes(c)) d++;
    else if (')]}'.includes(c) && --d === 0 && i < text.length - 1) return false;
  }
  return true;
}
