/**
 * Go's math package where its last bit differs from V8's: Pow (with Frexp
 * and Ldexp) and the trigonometric functions go-jsonnet calls.
 */

export { frexp, goPow, ldexp } from './math/pow.js';
export { goAcos, goAsin, goAtan, goAtan2, goCos, goSin, goTan } from './math/trig.js';
