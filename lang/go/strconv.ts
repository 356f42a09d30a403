/**
 * Go's strconv package, as far as our outputs and messages depend on it:
 * FormatFloat (every verb, Go's rounding), the Quote family, ParseFloat
 * and ParseInt/ParseUint with base 0. The one home for these; every
 * other folder imports them from here.
 */

export { formatFloat } from './strconv/ftoa.js';
export { canBackquote, isPrint, quote, quoteRune, runes } from './strconv/quote.js';
export { parseFloatOk, strconvParseFloat } from './strconv/atof.js';
export { parseGoInteger, strconvParseInt } from './strconv/atoi.js';
