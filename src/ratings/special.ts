/**
 * Special functions for the odds engine: erfc, its scaled form erfcx, the normal CDF and its logarithm.
 *
 * erfc follows W. J. Cody, "Rational Chebyshev approximations for the error function", Math. Comp. 23 (1969)
 * 631-637, as coded in Cody's SPECFUN routine CALERF (netlib, specfun/erf): three rational approximations on
 * |x| ≤ 0.46875, 0.46875 < |x| ≤ 4 and |x| > 4, with maximal relative errors near 1e-18 (below double precision),
 * and the exp(-x²) factor split as exp(-ysq²)·exp(-del) with ysq = trunc(16x)/16 so that x² is not rounded.
 */

// CALERF coefficients: erf on |x| ≤ 0.46875.
const A0 = 3.1611237438705656;
const A1 = 113.86415415105016;
const A2 = 377.48523768530202;
const A3 = 3209.3775891384695;
const A4 = 0.18577770618460315;
const B0 = 23.601290952344121;
const B1 = 244.02463793444417;
const B2 = 1282.6165260773723;
const B3 = 2844.2368334391706;
// erfc on 0.46875 < |x| ≤ 4.
const C = [
	0.564188496988670089, 8.88314979438837594, 66.1191906371416295, 298.635138197400131, 881.952221241769090,
	1712.04761263407058, 2051.07837782607147, 1230.33935479799725, 2.15311535474403846e-8,
] as const;
const D = [
	15.7449261107098347, 117.693950891312499, 537.181101862009858, 1621.38957456669019, 3290.79923573345963,
	4362.61909014324716, 3439.36767414372164, 1230.33935480374942,
] as const;
// erfc on |x| > 4 (in 1/x²).
const P = [
	0.305326634961232344, 0.360344899949804439, 0.125781726111229246, 0.0160837851487422766, 6.58749161529837803e-4,
	0.0163153871373020978,
] as const;
const Q = [
	2.56852019228982242, 1.87295284992346047, 0.527905102951428412, 0.0605183413124413191, 2.33520497626869185e-3,
] as const;

const SQRT_PI_INV = 0.5641895835477562869480794515607725858440;
const THRESH = 0.46875;
const XHUGE = 6.71e7;

/** erf(x)/x-type rational part on |x| ≤ 0.46875: returns erf(x). */
function erfSmall(x: number): number {
	const ysq = x * x;
	let xnum = A4 * ysq;
	let xden = ysq;
	xnum = (xnum + A0) * ysq;
	xden = (xden + B0) * ysq;
	xnum = (xnum + A1) * ysq;
	xden = (xden + B1) * ysq;
	xnum = (xnum + A2) * ysq;
	xden = (xden + B2) * ysq;
	return (x * (xnum + A3)) / (xden + B3);
}

/** For y > 0.46875: erfcx(y) = exp(y²)·erfc(y), CALERF's second and third intervals. */
function erfcxLarge(y: number): number {
	if (y <= 4) {
		let xnum = C[8] * y;
		let xden = y;
		for (let i = 0; i < 7; i++) {
			xnum = (xnum + C[i]!) * y;
			xden = (xden + D[i]!) * y;
		}
		return (xnum + C[7]) / (xden + D[7]);
	}
	if (y >= XHUGE) return SQRT_PI_INV / y;
	const ysq = 1 / (y * y);
	let xnum = P[5] * ysq;
	let xden = ysq;
	for (let i = 0; i < 4; i++) {
		xnum = (xnum + P[i]!) * ysq;
		xden = (xden + Q[i]!) * ysq;
	}
	const r = (ysq * (xnum + P[4])) / (xden + Q[4]);
	return (SQRT_PI_INV - r) / y;
}

/** exp(-y²) without rounding y² first (CALERF: ysq = trunc(16y)/16, del = (y-ysq)(y+ysq)). */
function expMinusSquare(y: number): number {
	const ysq = Math.trunc(y * 16) / 16;
	const del = (y - ysq) * (y + ysq);
	return Math.exp(-ysq * ysq) * Math.exp(-del);
}

/** exp(+y²) split the same way. */
function expSquare(y: number): number {
	const ysq = Math.trunc(y * 16) / 16;
	const del = (y - ysq) * (y + ysq);
	return Math.exp(ysq * ysq) * Math.exp(del);
}

/** Complementary error function, relative accuracy near double precision on the whole line. */
export function erfc(x: number): number {
	const y = Math.abs(x);
	if (y <= THRESH) return 1 - erfSmall(x);
	// erfc(y) for y > 0; 26.64 is where it underflows.
	const r = y > 26.64 ? 0 : expMinusSquare(y) * erfcxLarge(y);
	return x < 0 ? 2 - r : r;
}

/** Scaled complementary error function erfcx(x) = exp(x²)·erfc(x), for x ≥ -26 (it overflows below). */
export function erfcx(x: number): number {
	const y = Math.abs(x);
	if (y <= THRESH) return Math.exp(x * x) * (1 - erfSmall(x));
	const r = erfcxLarge(y);
	if (x >= 0) return r;
	const e = expSquare(y);
	return e + e - r;
}

const SQRT1_2 = Math.SQRT1_2;
const LOG_SQRT_2PI = 0.9189385332046727417803297364056176398614;
const LN2 = Math.LN2;

/** Standard normal CDF Φ(z) = erfc(-z/√2)/2. Accurate in relative terms in the lower tail. */
export function normalCdf(z: number): number {
	return 0.5 * erfc(-z * SQRT1_2);
}

/** log Φ(z), finite for every finite z: the lower tail uses -t² + log(erfcx(t)/2) with t = -z/√2. */
export function logNormalCdf(z: number): number {
	const t = -z * SQRT1_2;
	if (t < 0.5) {
		// Φ(z) ≥ 0.69: log1p of -Φ(-z), with Φ(-z) = erfc(-t)/2 computed directly (no cancellation).
		return Math.log1p(-0.5 * erfc(-t));
	}
	if (t < 26) return Math.log(0.5 * erfc(t));
	return -t * t + Math.log(0.5 * erfcxLarge(t));
}

/** Standard normal density φ(z). */
export function normalPdf(z: number): number {
	return Math.exp(-0.5 * z * z - LOG_SQRT_2PI);
}

export { LOG_SQRT_2PI, LN2 };
