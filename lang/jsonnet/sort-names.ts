/**
 * Sorting of field names for manifesting. Most objects have a handful of fields, often
 * already in order (a value manifested once is sorted again by std.manifestJsonEx):
 * Array.prototype.sort copies into a work array and calls the comparator through the
 * builtin, where an insertion sort of a short array allocates nothing and makes n - 1
 * comparisons on sorted input.
 */

/** Arrays up to this long are sorted by insertion. */
const INSERTION_SORT_MAX = 16;

/** Sorts `names` in place and returns it. */
export function sortNames(names: string[], compare: (a: string, b: string) => number): string[] {
  const n = names.length;
  if (n > INSERTION_SORT_MAX) return names.sort(compare);
  for (let i = 1; i < n; i++) {
    const x = names[i]!;
    let j = i - 1;
    while (j >= 0 && compare(names[j]!, x) > 0) {
      names[j + 1] = names[j]!;
      j--;
    }
    names[j + 1] = x;
  }
  return names;
}
