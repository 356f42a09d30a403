/**
 * Go's encoding/json for the values interface{} holds: Marshal and
 * MarshalIndent (with or without HTML escaping) and Unmarshal with Go's
 * error wording. The one home for these; every other folder imports them
 * from here.
 */

export { formatNumber, marshal, quoteString, type MarshalOptions } from './encoding-json/encode.js';
export { GoJsonSyntaxError, unmarshal } from './encoding-json/decode.js';
