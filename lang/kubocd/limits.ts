/**
 * The KuboCD v0.4 limits, shared by the profile, the template runner and the
 * rendering: 4 MiB per rendered text and per function result, 10000 items for
 * `until`. Values are fixed by the spec, never configurable per package.
 */

/** Bytes one template execution, or one function result, may produce. */
export const MAX_TEXT_BYTES = 4194304;

/** Items `until` may build, in either direction. */
export const MAX_UNTIL_ITEMS = 10000;

/** The suffix that replaces every message that could quote the data. */
export const WITHHELD = 'message withheld, as it can quote the data';
