/**
 * Special functions for the odds engine: erfc, its scaled form erfcx, the normal CDF and its logarithm.
 *
 * erfc follows W. J. Cody, "Rational Chebyshev approximations for the error function", Math. Comp. 23 (1969)
 * 631-637, as coded in Cody's SPECFUN routine CALERF (netlib, specfun/erf): three rational approximations on
 * |x| ≤ 0.46875, 0.46875 < |x| ≤ 4 and |x| > 4, with maximal relative errors near 1e-18 (below double precision),
 * and the exp(-x²) factor split as exp(-ysq²)·exp(-del) with ysq = trunc(16x)/16 so that x² is not rounded.
 */

// CALERF coefficients: erf on |x| ≤ 0.46875.
const A0 = 3.1611237438705655;
const A1 = 113.86415415105016;
const A2 = 377.485237685302;
const A3 = 3209.3775891384694;
const A4 = 0.18577770618460315;
const B0 = 23.601290952344122;
const B1 = 244.02463793444417;
const B2 = 1282.6165260773723;
const B3 = 2844.236833439171;
// erfc on 0.46875 < |x| ≤ 4 (C, D) and on |x| > 4 (P, Q, in 1/x²): written as literals in erfcxLarge (array loads
// made it 2-3x slower in V8); CALERF's values:
// C = 5.64188496988670089e-1 8.88314979438837594e0 6.61191906371416295e1 2.98635138197400131e2 8.81952221241769090e2
//     1.71204761263407058e3 2.05107837782607147e3 1.23033935479799725e3 2.15311535474403846e-8
// D = 1.57449261107098347e1 1.17693950891312499e2 5.37181101862009858e2 1.62138957456669019e3 3.29079923573345963e3
//     4.36261909014324716e3 3.43936767414372164e3 1.23033935480374942e3
// P = 3.05326634961232344e-1 3.60344899949804439e-1 1.25781726111229246e-1 1.60837851487422766e-2
//     6.58749161529837803e-4 1.63153871373020978e-2
// Q = 2.56852019228982242e0 1.87295284992346047e0 5.27905102951428412e-1 6.05183413124413191e-2 2.33520497626869185e-3

const SQRT_PI_INV = 0.5641895835477563;
export const THRESH = 0.46875;
const XHUGE = 6.71e7;

/** erf(x) for |x| ≤ 0.46875 (CALERF first interval). */
export function erfSmall(x: number): number {
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

/** For y > 0.46875: erfcx(y) = exp(y²)·erfc(y), CALERF's second and third intervals (Horner, unrolled). */
export function erfcxLarge(y: number): number {
	if (y <= 4) {
		let num = 2.1531153547440383e-8 * y + 0.5641884969886701;
		num = num * y + 8.883149794388377;
		num = num * y + 66.11919063714163;
		num = num * y + 298.6351381974001;
		num = num * y + 881.952221241769;
		num = num * y + 1712.0476126340707;
		num = num * y + 2051.0783778260716;
		num = num * y + 1230.3393547979972;
		let den = y + 15.744926110709835;
		den = den * y + 117.6939508913125;
		den = den * y + 537.1811018620099;
		den = den * y + 1621.3895745666903;
		den = den * y + 3290.7992357334597;
		den = den * y + 4362.619090143247;
		den = den * y + 3439.3676741437216;
		den = den * y + 1230.3393548037495;
		return num / den;
	}
	if (y >= XHUGE) return SQRT_PI_INV / y;
	const z = 1 / (y * y);
	let num = 0.016315387137302097 * z + 0.30532663496123236;
	num = num * z + 0.36034489994980445;
	num = num * z + 0.12578172611122926;
	num = num * z + 0.016083785148742275;
	num = (num * z + 0.0006587491615298378) * z;
	let den = z + 2.568520192289822;
	den = den * z + 1.8729528499234604;
	den = den * z + 0.5279051029514285;
	den = den * z + 0.06051834131244132;
	den = den * z + 0.0023352049762686918;
	return (SQRT_PI_INV - num / den) / y;
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
const LOG_SQRT_2PI = 0.9189385332046728;
const LN2 = Math.LN2;

/** exp(-z²/2) without rounding z² first: z = zs + r with zs = trunc(16z)/16, so zs²/2 is exact. */
function expMinusHalfSquare(z: number): number {
	const zs = Math.trunc(z * 16) / 16;
	const del = (z - zs) * (z + zs);
	return Math.exp(-0.5 * zs * zs) * Math.exp(-0.5 * del);
}

/**
 * Standard normal CDF Φ(z) = erfc(-z/√2)/2, relative accuracy near 1e-16 in the lower tail: the Gaussian factor is
 * exp(-z²/2) computed from z itself (rounding z/√2 first would cost 2u²·eps relative).
 */
export function normalCdf(z: number): number {
	const u = -z * SQRT1_2;
	if (u > THRESH) return u > 26.7 ? 0 : 0.5 * expMinusHalfSquare(z) * erfcxLarge(u);
	if (u >= -THRESH) return 0.5 - 0.5 * erfSmall(u);
	return u < -26.7 ? 1 : 1 - 0.5 * expMinusHalfSquare(z) * erfcxLarge(-u);
}

/**
 * log Φ(z), finite for every finite z. With u = -z/√2: the lower tail (u > 0.46875) is -z²/2 + log(erfcx(u)/2), the
 * middle uses erf's rational form, the upper tail is log1p(-Φ(-z)).
 */
export function logNormalCdf(z: number): number {
	const u = -z * SQRT1_2;
	if (u > THRESH) return -0.5 * z * z + Math.log(0.5 * erfcxLarge(u));
	if (u >= -THRESH) return Math.log(0.5 - 0.5 * erfSmall(u));
	if (u < -27.2) return 0; // Φ(-z) < 1e-322: log1p of it is 0 in double
	return Math.log1p(-0.5 * expMinusHalfSquare(z) * erfcxLarge(-u));
}

/**
 * Φ(-z) = P(N(0,1) > z), for quadrature inner loops: one exp instead of CALERF's two (x² is rounded first), so the
 * relative error is about (1 + z²/2)·2.2e-16 and the absolute error below 2.2e-16 everywhere.
 */
export function normalUpperTail(z: number): number {
	const t = z * SQRT1_2;
	if (t > THRESH) return t > 26.64 ? 0 : 0.5 * Math.exp(-t * t) * erfcxLarge(t);
	if (t >= -THRESH) return 0.5 - 0.5 * erfSmall(t);
	if (t < -26.64) return 1;
	return 1 - 0.5 * Math.exp(-t * t) * erfcxLarge(-t);
}

/** Standard normal density φ(z). */
export function normalPdf(z: number): number {
	return Math.exp(-0.5 * z * z - LOG_SQRT_2PI);
}

export { LOG_SQRT_2PI, LN2 };
