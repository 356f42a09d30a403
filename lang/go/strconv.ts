/**
 * Go's strconv package, as far as our outputs and messages depend on it:
 * FormatFloat (every verb, Go's rounding), the Quote family, ParseFloat's
 * grammar and ParseInt/ParseUint with base 0. The one home for these; every
 * other folder imports them from here.
 */

export { formatFloat } from './strconv/ftoa.js';
export { canBackquote, isPrint, quote, quoteRune, runes } from './strconv/quote.js';
export { parseFloatOk } from './strconv/atof.js';
export { parseGoInteger } from './strconv/atoi.js';
