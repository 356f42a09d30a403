/**
 * The order go-yaml v2 writes map keys in (sorter.go keyList.Less) for string
 * keys: a "natural" order where runs of digits compare as numbers and
 * non-letters sort before letters. `digitRunFix` selects the variant: true is
 * kubecfg's fork (github.com/kubecfg/yaml, used by `show`/`eval`), whose
 * comparison after a shared digit puts letters first; false is
 * gopkg.in/yaml.v2 v2.4.0 (used via ghodss/yaml by the manifestYaml native).
 * Invariants: compares by Unicode code point (Go runes), Unicode letter and
 * decimal-digit classes as Go's unicode.IsLetter/IsDigit, and digit runs
 * accumulate in a wrapping int64 exactly like the Go code.
 */

const LETTER = /^\p{L}$/u;
const DIGIT = /^\p{Nd}$/u;

function isLetter(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  return LETTER.test(String.fromCodePoint(cp));
}
function isDigit(cp: number): boolean {
  if (cp >= 48 && cp <= 57) return true;
  return cp > 127 && DIGIT.test(String.fromCodePoint(cp));
}

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}

export function goYamlKeyLess(a: string, b: string, digitRunFix: boolean): boolean {
  const ar = codePoints(a);
  const br = codePoints(b);
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) {
      digits = isDigit(ar[i]!);
      continue;
    }
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]! < br[i]!;
    if (al || bl) return digitRunFix && digits ? al : bl;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === 48 || br[i] === 48) {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--) {
        if (ar[j] !== 48) {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = BigInt.asIntN(64, an * 10n + BigInt(ar[ai]! - 48));
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = BigInt.asIntN(64, bn * 10n + BigInt(br[bi]! - 48));
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]! < br[i]!;
  }
  return ar.length < br.length;
}

/** Keys in go-yaml v2's output order. */
export function sortYamlKeys(keys: string[], digitRunFix: boolean): string[] {
  return [...keys].sort((x, y) => (goYamlKeyLess(x, y, digitRunFix) ? -1 : goYamlKeyLess(y, x, digitRunFix) ? 1 : 0));
}
