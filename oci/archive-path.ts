// Validates archive entry names before anything is stored (hazards 6-7): refuses absolute paths,
// backslashes, drive letters, '..', empty or '.' segments (a leading "./" is accepted and dropped),
// NUL and other control characters. Returns the clean relative path. Invariant: a returned path,
// joined under any root, stays inside that root.
import { OciError } from './errors.js';

export type EntryKind = 'file' | 'directory';

/** Returns the normalized path, or '' for the archive root directory ("./"). */
export function cleanEntryPath(raw: string, kind: EntryKind, where: string): string {
  const shown = JSON.stringify(raw.length > 200 ? raw.slice(0, 197) + '...' : raw);
  const refuse = (why: string): never => {
    throw new OciError('OCI_ARCHIVE', `${where}: entry ${shown} ${why}`);
  };
  if (raw === '') refuse('has an empty name');
  if (/[\x00-\x1f\x7f]/.test(raw)) refuse('contains a control character');
  if (raw.includes('\\')) refuse('contains a backslash (Windows path separators are not allowed)');
  if (raw.startsWith('/')) refuse('is an absolute path');
  if (/^[A-Za-z]:/.test(raw)) refuse('starts with a drive letter');
  let p = raw;
  while (p.startsWith('./')) p = p.slice(2);
  if (kind === 'directory') {
    if (p.endsWith('/')) p = p.slice(0, -1);
    if (p === '' || p === '.') return '';
  }
  if (p === '' || p === '.') refuse('does not name a file');
  for (const seg of p.split('/')) {
    if (seg === '..') refuse("has a '..' segment that would leave the bundle root");
    if (seg === '') refuse('has an empty path segment');
    if (seg === '.') refuse("has a '.' segment");
    if (/^[A-Za-z]:$/.test(seg)) refuse('has a drive-letter segment');
  }
  return p;
}
