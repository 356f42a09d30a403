/**
 * Kubernetes label selectors as list requests carry them (`labelSelector=`):
 * `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a)`, `k`, `!k`, joined by
 * commas. Invariants: parsing never throws; a malformed selector yields an
 * error message the server turns into a 400.
 */

export type LabelRequirement =
  | { readonly op: 'in' | 'notin'; readonly key: string; readonly values: readonly string[] }
  | { readonly op: 'exists' | 'notexists'; readonly key: string };

export type ParsedSelector =
  | { readonly ok: true; readonly requirements: readonly LabelRequirement[] }
  | { readonly ok: false; readonly error: string };

const KEY = /^[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

export function parseLabelSelector(text: string): ParsedSelector {
  const requirements: LabelRequirement[] = [];
  for (const raw of splitTopLevel(text)) {
    const part = raw.trim();
    if (part === '') continue;
    const setMatch = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(part);
    let req: LabelRequirement | undefined;
    if (setMatch !== null) {
      const values = setMatch[3]!.split(',').map((v) => v.trim());
      req = { op: setMatch[2] as 'in' | 'notin', key: setMatch[1]!, values };
    } else if (part.startsWith('!')) {
      req = { op: 'notexists', key: part.slice(1).trim() };
    } else {
      const eq = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
      if (eq !== null) req = { op: eq[2] === '!=' ? 'notin' : 'in', key: eq[1]!, values: [eq[3]!.trim()] };
      else if (!/[\s=!()]/.test(part)) req = { op: 'exists', key: part };
    }
    if (req === undefined || !KEY.test(req.key) || ('values' in req && !req.values.every((v) => VALUE.test(v)))) {
      return { ok: false, error: `unable to parse requirement: ${JSON.stringify(part)}` };
    }
    requirements.push(req);
  }
  return { ok: true, requirements };
}

export function labelsMatch(
  requirements: readonly LabelRequirement[],
  labels: Readonly<Record<string, string>>,
): boolean {
  return requirements.every((req) => {
    const has = Object.hasOwn(labels, req.key);
    switch (req.op) {
      case 'exists':
        return has;
      case 'notexists':
        return !has;
      case 'in':
        return has && req.values.includes(labels[req.key]!);
      case 'notin':
        return !has || !req.values.includes(labels[req.key]!);
    }
  });
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
