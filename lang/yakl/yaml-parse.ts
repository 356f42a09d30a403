/**
 * Stage 2: parse the lexed text (plain YAML with placeholders) as a YAML
 * stream with the `yaml` package. Scalars resolve as kubectl and kustomize
 * read them (YAML 1.1 numbers such as 0777 and 0x1F); timestamps and
 * sexagesimal numbers stay strings, `<<` stays an ordinary key (YAKL applies
 * merges itself) and aliases are expanded by YAKL under its own budget (the
 * package's maxAliasCount only applies to toJS, which YAKL never calls).
 */
import { type Document, parseAllDocuments } from 'yaml';

const DROPPED_TAG = /timestamp|merge|binary|omap|pairs|set$/;

export function parseYamlStream(text: string): Document.Parsed[] {
  const docs = parseAllDocuments(text, {
    version: '1.2',
    schema: 'yaml-1.1',
    merge: false,
    uniqueKeys: true,
    prettyErrors: false,
    strict: true,
    customTags: (tags) => tags.filter((t) => typeof t !== 'string' && !DROPPED_TAG.test(t.tag) && t.format !== 'TIME'),
  });
  return Array.isArray(docs) ? docs : [docs];
}
