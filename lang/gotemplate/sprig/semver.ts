/**
 * Semantic versions and constraints as Masterminds/semver v3 (used by Sprig's
 * `semver` and `semverCompare`): lenient versions ("v1.2" is 1.2.0),
 * constraints with = != > < >= <= ~ ^, x-ranges (1.2.x, *), hyphen ranges,
 * `,`/space for AND and `||` for OR. A version with a pre-release only
 * satisfies constraints that carry a pre-release themselves.
 */

import { type FuncDef, pure } from '../function.js';
import { GoObject } from '../value.js';

const versionRe =
  /^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?$/;

class Version extends GoObject {
  constructor(
    readonly major: number,
    readonly minor: number,
    readonly patch: number,
    readonly pre: string,
    readonly metadata: string,
    readonly original: string,
  ) {
    super();
  }

  static parse(v: string): Version {
    const m = versionRe.exec(v);
    if (!m) throw new Error('Invalid Semantic Version');
    const num = (s: string | undefined) => (s ? Number(s.replace('.', '')) : 0);
    const pre = m[5] ?? '';
    for (const id of pre ? pre.split('.') : []) {
      if (/^0[0-9]+$/.test(id)) throw new Error('Version segment starts with 0');
    }
    return new Version(num(m[1]), num(m[2]), num(m[3]), pre, m[8] ?? '', v);
  }

  override toString(): string {
    let s = `${this.major}.${this.minor}.${this.patch}`;
    if (this.pre) s += '-' + this.pre;
    if (this.metadata) s += '+' + this.metadata;
    return s;
  }

  goType(): string {
    return '*semver.Version';
  }

  format(): string {
    return this.toString();
  }

  toJSONValue(): string {
    return this.toString();
  }

  field(name: string): unknown {
    switch (name) {
      case 'Major':
        return () => this.major;
      case 'Minor':
        return () => this.minor;
      case 'Patch':
        return () => this.patch;
      case 'Prerelease':
        return () => this.pre;
      case 'Metadata':
        return () => this.metadata;
      case 'Original':
        return () => this.original;
      case 'String':
        return () => this.toString();
      case 'Compare':
        return (o: unknown) => this.compare(asVersion(o));
      case 'LessThan':
        return (o: unknown) => this.compare(asVersion(o)) < 0;
      case 'GreaterThan':
        return (o: unknown) => this.compare(asVersion(o)) > 0;
      case 'Equal':
        return (o: unknown) => this.compare(asVersion(o)) === 0;
      case 'IncMajor':
        return () => new Version(this.major + 1, 0, 0, '', '', `${this.major + 1}.0.0`);
      case 'IncMinor':
        return () => new Version(this.major, this.minor + 1, 0, '', '', `${this.major}.${this.minor + 1}.0`);
      case 'IncPatch':
        return () =>
          this.pre
            ? new Version(this.major, this.minor, this.patch, '', '', `${this.major}.${this.minor}.${this.patch}`)
            : new Version(
                this.major,
                this.minor,
                this.patch + 1,
                '',
                '',
                `${this.major}.${this.minor}.${this.patch + 1}`,
              );
    }
    return undefined;
  }

  compare(o: Version): number {
    const d = cmp(this.major, o.major) || cmp(this.minor, o.minor) || cmp(this.patch, o.patch);
    if (d) return d;
    return comparePre(this.pre, o.pre);
  }
}

function asVersion(o: unknown): Version {
  if (o instanceof Version) return o;
  throw new Error('argument is not a *semver.Version');
}

function cmp(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparePre(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i];
    const q = y[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    const pn = /^[0-9]+$/.test(p);
    const qn = /^[0-9]+$/.test(q);
    if (pn && qn) {
      const d = cmp(Number(p), Number(q));
      if (d) return d;
    } else if (pn) return -1;
    else if (qn) return 1;
    else if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}

interface Constraint {
  op: string;
  v: Version;
  minorDirty: boolean;
  patchDirty: boolean;
  dirty: boolean;
  any: boolean;
}

const constraintRe =
  /^(>=|=>|<=|=<|!=|>|<|=|~>|~|\^)?\s*(v?[0-9xX*]+(?:\.[0-9xX*]+)?(?:\.[0-9xX*]+)?(?:-[0-9A-Za-z\-.]+)?(?:\+[0-9A-Za-z\-.]+)?)$/;

function parseConstraint(text: string, whole: string): Constraint {
  const m = constraintRe.exec(text);
  if (!m) throw new Error(`improper constraint: ${whole}`);
  let op = m[1] ?? '';
  if (op === '=>') op = '>=';
  if (op === '=<') op = '<=';
  if (op === '~>') op = '~';
  const ver = m[2]!.replace(/^v/, '');
  const [core = '', ...rest] = ver.split(/(?=[-+])/);
  const parts = core.split('.');
  const wild = (s: string | undefined) => s === undefined || /^[xX*]$/.test(s);
  if (parts.some((p, i) => i > 0 && wild(parts[i - 1]) && !wild(p))) throw new Error(`improper constraint: ${whole}`);
  const any = wild(parts[0]);
  const minorDirty = any || wild(parts[1]);
  const patchDirty = minorDirty || wild(parts[2]);
  const num = (s: string | undefined) => (wild(s) ? 0 : Number(s));
  const suffix = rest.join('');
  const pre = /^-([^+]*)/.exec(suffix)?.[1] ?? '';
  const v = new Version(num(parts[0]), num(parts[1]), num(parts[2]), pre, '', ver);
  return { op, v, minorDirty, patchDirty, dirty: minorDirty || patchDirty, any };
}

function check(c: Constraint, v: Version): boolean {
  if (v.pre !== '' && c.v.pre === '') return false;
  const con = c.v;
  switch (c.op) {
    case '':
    case '=':
      if (c.any) return true;
      if (c.dirty) return tilde(c, v);
      return v.compare(con) === 0;
    case '!=':
      if (c.any) return false;
      if (c.dirty) return !tilde(c, v);
      return v.compare(con) !== 0;
    case '>':
      if (!c.dirty) return v.compare(con) > 0;
      if (v.major > con.major) return true;
      if (v.major < con.major || c.minorDirty) return false;
      return v.minor > con.minor;
    case '<':
      return v.compare(con) < 0;
    case '>=':
      return v.compare(con) >= 0;
    case '<=':
      if (!c.dirty) return v.compare(con) <= 0;
      if (v.major > con.major) return false;
      if (v.major === con.major && v.minor > con.minor && !c.minorDirty) return false;
      return true;
    case '~':
      return tilde(c, v);
    case '^': {
      if (v.compare(con) < 0) return false;
      if (con.major > 0 || c.minorDirty) return v.major === con.major;
      if (con.minor > 0 || c.patchDirty) return v.major === 0 && v.minor === con.minor;
      return v.major === 0 && v.minor === con.minor && v.patch === con.patch;
    }
  }
  return false;
}

function tilde(c: Constraint, v: Version): boolean {
  const con = c.v;
  if (v.compare(con) < 0) return false;
  if (con.major === 0 && con.minor === 0 && con.patch === 0 && !c.minorDirty && !c.patchDirty) return true;
  if (v.major !== con.major) return false;
  if (v.minor !== con.minor && !c.minorDirty) return false;
  return true;
}

/** Parses a constraint string into OR-groups of AND-ed constraints. */
function parseConstraints(text: string): Constraint[][] {
  return text.split('||').map((group) => {
    const g = group.trim();
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(g);
    if (hyphen) return [parseConstraint('>=' + hyphen[1], text), parseConstraint('<=' + hyphen[2], text)];
    const tokens = g
      .replace(/(>=|=>|<=|=<|!=|~>|[><=~^])\s+/g, '$1')
      .split(/[\s,]+/)
      .filter((t) => t !== '');
    if (tokens.length === 0) throw new Error(`improper constraint: ${text}`);
    return tokens.map((t) => parseConstraint(t, text));
  });
}

function semverCompare(constraint: string, version: string): boolean {
  const cs = parseConstraints(constraint);
  const v = Version.parse(version);
  return cs.some((group) => group.every((c) => check(c, v)));
}

export const semverFuncs: Record<string, FuncDef> = {
  semver: pure(['string'], (v: string) => Version.parse(v)),
  semverCompare: pure(['string', 'string'], semverCompare),
};
