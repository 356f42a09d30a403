/**
 * A go-yaml v2 (or sigs.k8s.io/yaml) failure. The message is Go's text,
 * `yaml: ...` for the parser and decoder, `json: ...`/`Unsupported map key
 * ...` for the JSON conversion; callers add the prefixes their program adds
 * ("error converting YAML to JSON: "). `kind` lets a caller reword without
 * parsing the text; `offset`/`line` are where a syntax error is, in the document.
 */
export type GoYamlErrorKind =
  'syntax' | 'depth' | 'aliasing' | 'decode' | 'duplicate-key' | 'key-collision' | 'unconvertible-key' | 'json';

export class GoYamlError extends Error {
  constructor(
    message: string,
    readonly kind: GoYamlErrorKind,
    readonly offset?: number,
    /** The 1-based line, where the message has one. */
    readonly line?: number,
  ) {
    super(message);
    this.name = 'GoYamlError';
  }
}
