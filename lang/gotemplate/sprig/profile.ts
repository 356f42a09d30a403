/**
 * The Sprig v3 function map as Helm exposes it, assembled from the topic
 * files. Sprig's `slice` replaces Go's builtin of that name (as in Helm).
 * Withheld names fail at parse time with "function X is not available (...)":
 * host access (env, expandenv, getHostByName) (hazard 21). Key and
 * certificate generators exist (certs.ts): they draw only from the injected
 * random source and clock, so they are as hermetic as randAlphaNum and now.
 */

import { type FuncDef, FunctionProfile, pure } from '../function.js';
import { conversionFuncs } from './convert.js';
import { certFuncs } from './certs.js';
import { cryptoFuncs } from './crypto.js';
import { dateFuncs } from './date.js';
import { defaultFuncs } from './defaults.js';
import { dictFuncs } from './dicts.js';
import { encodingFuncs } from './encoding.js';
import { listFuncs } from './lists.js';
import { mathFuncs } from './math.js';
import { pathFuncs } from './paths.js';
import { randomFuncs } from './random.js';
import { regexFuncs } from './regex.js';
import { semverFuncs } from './semver.js';
import { stringFuncs } from './strings.js';
import { urlFuncs } from './url.js';

export const sprigFuncs: Record<string, FuncDef> = {
  hello: pure([], () => 'Hello!'),
  ...stringFuncs,
  ...conversionFuncs,
  ...mathFuncs,
  ...listFuncs,
  ...dictFuncs,
  ...defaultFuncs,
  ...encodingFuncs,
  ...cryptoFuncs,
  ...certFuncs,
  ...pathFuncs,
  ...regexFuncs,
  ...semverFuncs,
  ...dateFuncs,
  ...randomFuncs,
  ...urlFuncs,
};

const hostAccess = 'non-hermetic: it reads the host';

export const sprigWithheld: Record<string, string> = {
  env: `${hostAccess} environment`,
  expandenv: `${hostAccess} environment`,
  getHostByName: `${hostAccess} DNS resolver`,
};

function withheldMessages(w: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(w).map(([k, why]) => [k, `function "${k}" is not available (${why})`]));
}

export const sprigProfile = new FunctionProfile(sprigFuncs, withheldMessages(sprigWithheld));
export { withheldMessages };
