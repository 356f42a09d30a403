/**
 * Resolving feature gates for one invocation (RFC05 "Precedence"): for each
 * feature, the first source that names it wins — --features (KUBECFG_FEATURES
 * is the same flag), then the rc file, then --alpha (alpha features only),
 * then the stage's default. Settings combine per feature, so `--features=pack`
 * adds to the rc file's `yakl` instead of replacing it. Gates records which
 * source decided each feature: that is the SOURCE column of `kubecfg features`.
 */
import { defaultEnabled, FEATURES, findFeature, type Feature } from './registry.js';
import { KubecfgError } from '../../lang/common/errors.js';

/** One place features are set from, e.g. `--features` or `.kubecfgrc.jsonnet`. */
export interface FeatureSource {
  name: string;
  /** "name", "name=true" or "name=false", in order; a later item for the same feature wins. */
  items: string[];
}

export interface Resolution {
  feature: Feature;
  enabled: boolean;
  /** `--features`, `.kubecfgrc.jsonnet`, `--alpha` or `default`. */
  source: string;
}

export class FeatureError extends KubecfgError {
  readonly code = 'FEATURE_SETTING';
}

/** The source name `--alpha` shows as, whether it came from the flag or KUBECFG_ALPHA. */
export const ALPHA_SOURCE = '--alpha';

export class Gates {
  private constructor(
    private readonly table: Map<string, Resolution>,
    /** Warnings to print (settings of removed features). */
    readonly warnings: string[],
  ) {}

  /** Resolves every feature; throws FeatureError for an unknown name, a bad value or a GA feature set to false. */
  static resolve(alpha: boolean, sources: FeatureSource[]): Gates {
    const decided = new Map<string, Resolution>();
    const warnings: string[] = [];
    for (const source of sources) {
      const own = new Map<string, boolean>();
      for (const item of source.items) {
        const { name, value } = parseItem(item, source.name);
        const feature = findFeature(name);
        if (!feature) throw new FeatureError(`unknown feature "${name}" in ${source.name}; see kubecfg features`);
        if (feature.stage === 'GA' && !value) {
          throw new FeatureError(`${name} is a GA feature and can no longer be turned off (${source.name})`);
        }
        if (feature.stage === 'removed') {
          warnings.push(`feature ${name} was removed; setting it in ${source.name} has no effect`);
          continue;
        }
        own.set(name, value);
      }
      for (const [name, value] of own) {
        if (!decided.has(name)) decided.set(name, { feature: findFeature(name)!, enabled: value, source: source.name });
      }
    }
    for (const feature of FEATURES) {
      if (decided.has(feature.name)) continue;
      if (feature.stage === 'GA') decided.set(feature.name, { feature, enabled: true, source: 'default' });
      else if (alpha && feature.stage === 'alpha')
        decided.set(feature.name, { feature, enabled: true, source: ALPHA_SOURCE });
      else decided.set(feature.name, { feature, enabled: defaultEnabled(feature.stage), source: 'default' });
    }
    return new Gates(decided, warnings);
  }

  enabled(name: string): boolean {
    const r = this.table.get(name);
    if (!r) throw new Error(`internal: feature ${name} is not registered`);
    return r.enabled;
  }

  /**
   * The one gate check every gated command, flag and file type uses. `subject`
   * is what needed the feature (a file name, a flag), shown before the message.
   */
  require(name: string, subject?: string): void {
    if (this.enabled(name)) return;
    const r = this.table.get(name)!;
    const what = `${name} is an ${r.feature.stage} feature; turn it on with --features=${name}`;
    throw new FeatureError(subject ? `${subject}: ${what}` : what);
  }

  /** Every feature in registry order, with its setting and the source that decided it. */
  list(): Resolution[] {
    return FEATURES.map((f) => this.table.get(f.name)!);
  }

  /** The enabled feature names, for cache keys and bundle metadata. */
  enabledNames(): string[] {
    return this.list()
      .filter((r) => r.enabled)
      .map((r) => r.feature.name);
  }
}

function parseItem(item: string, sourceName: string): { name: string; value: boolean } {
  const trimmed = item.trim();
  const eq = trimmed.indexOf('=');
  if (eq < 0) return { name: trimmed, value: true };
  const name = trimmed.slice(0, eq);
  const raw = trimmed.slice(eq + 1);
  if (raw === 'true') return { name, value: true };
  if (raw === 'false') return { name, value: false };
  throw new FeatureError(`invalid value "${raw}" for feature ${name} in ${sourceName}: want true or false`);
}

/** Splits repeated, comma-separated `--features` values into items. */
export function splitFeatureFlag(values: string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
