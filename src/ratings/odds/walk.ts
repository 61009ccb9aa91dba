/**
 * The odds engine's walk: one trapezoid rule on nodes shared by every racer, walked out from the bulk
 * until a log-concavity bound says every racer's remaining mass is negligible against its own, with P(win) from
 * prefix and suffix products and P(top 3) from truncated prefix and suffix Poisson-binomials on the same nodes.
 * refinedWalk halves the grid (keeping its nodes) while a sum check fails or some racer's integrand is too narrow.
 * docs/odds.md, "The walk".
 */
import { OddsAccuracyError } from './errors.js';
import type { FieldModel } from './models.js';

export const MAX_HALVINGS = 3;
/** The walk stops once, for every racer, the nodes beyond hold less than this fraction of its sum so far. */
export const TAIL_FRACTION = 1e-13;
/** A safety net against a stopping rule that never fires (it cannot for valid inputs: the slopes diverge). */
export const MAX_NODES = 200_000;
/** Running products are renormalized by 1e200 whenever they drop below 1e-200 (the count goes to the exponent). */
export const RESCALE = 1e200;
export const RESCALE_LIMIT = 1e-200;
export const LOG_RESCALE = Math.log(RESCALE);
/**
 * Every racer's integrand must be at least this many steps wide (standard deviation in t): e^{-2π²·1.15²} = 5e-12,
 * the trapezoid's relative error on a Gaussian of that width, well inside the 1e-9 relative target.
 */
export const WIDTH_RATIO = 1.15;
/** Slots of FieldModel.fillNode's slope output. */
const NODE_SLOPES = 2;
/**
 * A racer's remaining nodes may be dropped when they hold at most this much probability in all, whatever its sum
 * so far: 1e-10 of the smallest probability held to relative accuracy (1e-300).
 */
const NEGLIGIBLE_MASS = 1e-310;
/** The smallest probability held to 1e-9 relative accuracy. */
const SMALLEST_RELATIVE = 1e-300;

/** Tolerance of the ΣP = 1 self-check: 1e-12 plus the rounding of an n-term sum. */
export function sumTolerance(n: number): number {
	return 1e-12 + n * 4e-16;
}

/** Scratch arrays of the walk, reused across calls of one size class (grown as needed). */
class WalkScratch {
	size = 0;
	weight = new Float64Array(0);
	beat = new Float64Array(0);
	behind = new Float64Array(0);
	fall = new Float64Array(0);
	slope = new Float64Array(NODE_SLOPES);
	/** Prefix and suffix products Π(1 - b) (win) and truncated Poisson-binomials (top 3), with their exponents. */
	preWin = new Float64Array(0);
	preWinExp = new Int32Array(0);
	pre3 = new Float64Array(0);
	pre3Exp = new Int32Array(0);
	/** The current pass's node sums (walk's stopping rule), P(win) and P(top 3). */
	passWin = new Float64Array(0);
	passTop3 = new Float64Array(0);

	ensure(n: number): void {
		if (this.size >= n) return;
		const m = Math.max(n, 2 * this.size);
		this.size = m;
		this.weight = new Float64Array(m);
		this.beat = new Float64Array(m);
		this.behind = new Float64Array(m);
		this.fall = new Float64Array(m);
		this.preWin = new Float64Array(m);
		this.preWinExp = new Int32Array(m);
		this.pre3 = new Float64Array(3 * m);
		this.pre3Exp = new Int32Array(m);
		this.passWin = new Float64Array(m);
		this.passTop3 = new Float64Array(m);
	}
}

const scratch = new WalkScratch();

/**
 * One pass of the shared-node trapezoid at step h: adds every racer's P(win) node sums (and P(top 3)'s when `sums`
 * holds them) and their moments into `sums`, walking up from model.start() + offset and then down from the node
 * below it (refinedWalk makes a finer grid of several passes). At each node:
 * - the products Π_{j≠i}(1 - b_j) come from prefix and suffix products of the accurately computed behind
 *   probabilities (no 1 - b cancellation: a hopeless racer's tiny product keeps its relative accuracy), each
 *   renormalized by 1e200 with the count folded into racer i's log-weight, so nothing underflows before the final
 *   term itself (probabilities down to about 1e-300 keep their digits);
 * - P(top 3) uses the prefix/suffix Poisson-binomials truncated at two others ahead (sums of products of
 *   non-negative numbers only).
 * Stopping (relative accuracy; every bound holds at every node beyond, so no stretch where the terms
 * underflow can end a direction early): in the walk direction every P(win) integrand decays at least like
 * e^{-D·|Δt|} from the node on (D from fillNode's slope bounds, valid beyond the node by log-concavity), so racer
 * i's nodes beyond hold at most term_i·q/(1 - q), q = e^{-D·h}. A direction ends once, for every racer, the nodes
 * beyond are below TAIL_FRACTION of its sum so far or NEGLIGIBLE_MASS in all. P(top 3) multiplies the P(win)
 * integrand by 1 + e1 + e2 of the others' odds b_j/(1 - b_j):
 * - going ahead (model.ahead) the odds fall, so the P(win) bound holds for P(top 3) too;
 * - going behind they grow without a useful bound (the old local bound let the walk stop in the empty stretch
 *   between a racer far ahead and the rest). There, racer i's integrand is its density times P(at most two others
 *   ahead), which only falls: once past racer i's mode the density falls at least at fall[i] (log-concave), and in
 *   any case the nodes beyond hold at most 2·P(at most two ahead)/h (restNegligible, in log space).
 */
export function walk(model: FieldModel, h: number, offset: number, sums: GridSums): void {
	const n = model.n;
	if (!sums.top3 && model.winPass) {
		model.winPass(h, offset, sums);
		return;
	}
	scratch.ensure(n);
	const { weight, beat, behind, fall, slope, preWin, preWinExp, pre3, pre3Exp } = scratch;
	const { m1: moment1, m2: moment2, m1Top: moment1Top, m2Top: moment2Top } = sums;
	// This pass's own node sums: the stopping rule holds each racer's dropped nodes against them.
	const win = scratch.passWin;
	const top3 = sums.top3 ? scratch.passTop3 : undefined;
	win.fill(0, 0, n);
	if (top3) top3.fill(0, 0, n);
	const t0 = model.start() + offset;
	let nodes = 0;
	for (let dir = 1; dir >= -1; dir -= 2) {
		for (let k = dir === 1 ? 0 : 1; ; k++) {
			if (++nodes > MAX_NODES) throw new OddsAccuracyError(`odds quadrature did not converge (n = ${n})`);
			const t = t0 + dir * k * h;
			// Moments are taken about the first pass's start, so that every pass of one grid adds up.
			const tau = offset + dir * k * h;
			model.fillNode(t, weight, beat, behind, fall, slope);
			// Prefixes: preWin[i] = Π_{j<i}(1 - b_j)·RESCALE^{preWinExp[i]}, pre3 likewise truncated at 2 ahead.
			let w = 1;
			let we = 0;
			let a0 = 1;
			let a1 = 0;
			let a2 = 0;
			let ae = 0;
			for (let j = 0; j < n; j++) {
				preWin[j] = w;
				preWinExp[j] = we;
				const p = beat[j]!;
				const q = behind[j]!;
				w *= q;
				if (w < RESCALE_LIMIT) {
					w *= RESCALE;
					we++;
				}
				if (top3) {
					pre3[3 * j] = a0;
					pre3[3 * j + 1] = a1;
					pre3[3 * j + 2] = a2;
					pre3Exp[j] = ae;
					a2 = a2 * q + a1 * p;
					a1 = a1 * q + a0 * p;
					a0 = a0 * q;
					if (a0 < RESCALE_LIMIT && a1 < RESCALE_LIMIT && a2 < RESCALE_LIMIT) {
						a0 *= RESCALE;
						a1 *= RESCALE;
						a2 *= RESCALE;
						ae++;
					}
				}
			}
			// The stopping rule (winTailDone, topTailDone), checked racer by racer in the suffix loop until one fails.
			const decay = dir > 0 ? -slope[1]! : slope[0]!;
			const tailFactor = decay > 0 ? geometricTail(decay * h) : Infinity;
			const behindward = dir !== model.ahead;
			let done = true;
			// Suffixes, combined with the prefixes on the way down.
			let anyWeight = false;
			w = 1;
			we = 0;
			a0 = 1;
			a1 = 0;
			a2 = 0;
			ae = 0;
			for (let i = n - 1; i >= 0; i--) {
				const wi = weight[i]!;
				if (wi > 0) anyWeight = true;
				const ew = we + preWinExp[i]!;
				const rest = w * preWin[i]!;
				const tw = (ew === 0 ? wi : wi * Math.exp(-ew * LOG_RESCALE)) * rest;
				const sumWin = win[i]! + tw;
				win[i] = sumWin;
				moment1[i] = moment1[i]! + tw * tau;
				moment2[i] = moment2[i]! + tw * tau * tau;
				if (done) done = winTailDone(tw, tailFactor, sumWin, behindward, rest, ew, h);
				if (top3) {
					const b0 = pre3[3 * i]!;
					const b1 = pre3[3 * i + 1]!;
					const b2 = pre3[3 * i + 2]!;
					const e3 = ae + pre3Exp[i]!;
					const rest3 = a0 * b0 + a0 * b1 + a1 * b0 + a0 * b2 + a1 * b1 + a2 * b0;
					const tt = (e3 === 0 ? wi : wi * Math.exp(-e3 * LOG_RESCALE)) * rest3;
					const sumTop = top3[i]! + tt;
					top3[i] = sumTop;
					moment1Top[i] = moment1Top[i]! + tt * tau;
					moment2Top[i] = moment2Top[i]! + tt * tau * tau;
					if (done) done = topTailDone(tt, tailFactor, sumTop, behindward, fall[i]!, rest3, e3, h);
				}
				// The prefix loop's update, kept inline on purpose: a shared function would hold the six running values
				// in memory instead of registers, in the engine's hottest loop.
				const p = beat[i]!;
				const q = behind[i]!;
				w *= q;
				if (w < RESCALE_LIMIT) {
					w *= RESCALE;
					we++;
				}
				if (top3) {
					a2 = a2 * q + a1 * p;
					a1 = a1 * q + a0 * p;
					a0 = a0 * q;
					if (a0 < RESCALE_LIMIT && a1 < RESCALE_LIMIT && a2 < RESCALE_LIMIT) {
						a0 *= RESCALE;
						a1 *= RESCALE;
						a2 *= RESCALE;
						ae++;
					}
				}
			}
			if (done) break;
			if (!anyWeight && model.nextMass) {
				// Every density underflows here (a racer far ahead of the rest): jump to the last node
				// before the next racer's density can be non-zero; the nodes skipped hold exact zeros.
				const next = model.nextMass(t, dir);
				if (!Number.isFinite(next)) break;
				const last = Math.floor(Math.abs(next - t0) / h);
				if (last - 1 > k) k = last - 1;
			}
		}
	}
	const total = sums.win;
	for (let i = 0; i < n; i++) total[i] = total[i]! + win[i]!;
	const total3 = sums.top3;
	if (top3 && total3) for (let i = 0; i < n; i++) total3[i] = total3[i]! + top3[i]!;
}

/**
 * The node sums of a trapezoid grid built by walk passes, with their first and second moments (the width check).
 * A grid of spacing g is refined to g/2 by one more pass at step g, offset by g/2 (refinedWalk): the nodes already
 * summed are kept, so halving costs one pass of the old size instead of a new walk of twice its size.
 */
class GridSums {
	readonly win: Float64Array;
	readonly top3: Float64Array | undefined;
	readonly m1: Float64Array;
	readonly m2: Float64Array;
	readonly m1Top: Float64Array;
	readonly m2Top: Float64Array;

	constructor(n: number, withTop3: boolean) {
		this.win = new Float64Array(n);
		this.top3 = withTop3 ? new Float64Array(n) : undefined;
		this.m1 = new Float64Array(n);
		this.m2 = new Float64Array(n);
		this.m1Top = new Float64Array(withTop3 ? n : 0);
		this.m2Top = new Float64Array(withTop3 ? n : 0);
	}

	/** Zero the first n entries of every array, for a new grid. */
	reset(n: number): this {
		this.win.fill(0, 0, n);
		this.m1.fill(0, 0, n);
		this.m2.fill(0, 0, n);
		if (this.top3) {
			this.top3.fill(0, 0, n);
			this.m1Top.fill(0, 0, n);
			this.m2Top.fill(0, 0, n);
		}
		return this;
	}

	/** The narrowest racer integrand's standard deviation in t (P(win), and P(top 3) when summed). */
	width(n: number, spacing: number): number {
		const w = minWidth(this.win, this.m1, this.m2, n, spacing);
		return this.top3 ? Math.min(w, minWidth(this.top3, this.m1Top, this.m2Top, n, spacing)) : w;
	}
}

/** Reused grid sums (P(win) only, and with P(top 3)), grown as needed: the small fields' calls allocate nothing. */
const reusedSums: { win: GridSums; top3: GridSums } = { win: new GridSums(0, false), top3: new GridSums(0, true) };

export function gridSums(n: number, withTop3: boolean): GridSums {
	const key = withTop3 ? 'top3' : 'win';
	if (reusedSums[key].win.length < n)
		reusedSums[key] = new GridSums(Math.max(n, 2 * reusedSums[key].win.length), withTop3);
	return reusedSums[key].reset(n);
}

/**
 * P(win) (and P(top 3) when `top3` is given) by the walk at step h, refined by halving the grid's spacing (at most
 * MAX_HALVINGS times) while a sum check fails (ΣP(win) = 1, ΣP(top 3) = 3) or some racer's integrand is narrower
 * than WIDTH_RATIO spacings (the relative accuracy of a hopeless racer, whose integrand narrows like
 * 1/√n in big fields). Throws OddsAccuracyError, named by `what`, when the sums are still off after the last
 * halving.
 */
export function refinedWalk(
	model: FieldModel,
	h: number,
	win: Float64Array,
	top3: Float64Array | undefined,
	what: string,
): void {
	const n = model.n;
	const sums = gridSums(n, top3 !== undefined);
	let spacing = h;
	walk(model, h, 0, sums);
	for (let attempt = 0; ; attempt++) {
		for (let i = 0; i < n; i++) win[i] = sums.win[i]! * spacing;
		let err = Math.abs(sumOf(win) - 1);
		if (top3) {
			const s3 = sums.top3!;
			for (let i = 0; i < n; i++) top3[i] = s3[i]! * spacing;
			err = Math.max(err, Math.abs(sumOf(top3) - 3) / 3);
		}
		const sumsOk = err <= sumTolerance(n);
		if (sumsOk && (attempt === MAX_HALVINGS || sums.width(n, spacing) >= WIDTH_RATIO * spacing)) return;
		if (attempt === MAX_HALVINGS) {
			throw new OddsAccuracyError(`${what}: sums off by ${err} after ${MAX_HALVINGS} halvings of h (n = ${n})`);
		}
		walk(model, spacing, spacing / 2, sums);
		spacing /= 2;
	}
}

/**
 * The smallest standard deviation, in t, of the racers' integrands (from their node sums: mass, first and second
 * moments). The trapezoid's relative error on an integrand of width σ is about e^{-2π²σ²/h²}; an integrand the
 * grid does not resolve shows a width of about h/√12 or less, so it is caught too. Racers whose probability is
 * below 1e-300 are left out: they are not held to relative accuracy, and the moments of terms near the smallest
 * doubles are noise (a Folyami racer at 5e-320 showed a width near 0 and drove h to h/512, past the node limit).
 */
function minWidth(mass: Float64Array, m1: Float64Array, m2: Float64Array, n: number, h: number): number {
	let width = Infinity;
	for (let i = 0; i < n; i++) {
		const w = mass[i]!;
		if (!(w * h >= SMALLEST_RELATIVE)) continue;
		const mean = m1[i]! / w;
		const variance = m2[i]! / w - mean * mean;
		width = Math.min(width, Math.sqrt(Math.max(variance, 0)));
	}
	return width;
}

/**
 * The walk's stopping rule for racer i's P(win) in the walk direction (see walk): its nodes beyond are negligible
 * against its own sum so far (TAIL_FRACTION) or absolutely (NEGLIGIBLE_MASS). `term` is the node's term, `tailFactor`
 * the geometric bound q/(1 - q) of the nodes beyond from the slope bound (Infinity when the slope gives none), and
 * rest·RESCALE^{-restExp} the others' arrangement Π_{j≠i}(1 - b_j), which only falls going behind.
 */
function winTailDone(
	term: number,
	tailFactor: number,
	sum: number,
	behindward: boolean,
	rest: number,
	restExp: number,
	h: number,
): boolean {
	if (term * tailFactor <= TAIL_FRACTION * sum) return true;
	return behindward && restNegligible(rest, restExp, sum, h);
}

/**
 * The same for racer i's P(top 3): going ahead the P(win) bound holds (the others' odds fall); going behind, the
 * density's own fall once past its mode (log-concave), or the bound on P(at most two others ahead) (rest3).
 */
function topTailDone(
	term: number,
	tailFactor: number,
	sum: number,
	behindward: boolean,
	fall: number,
	rest3: number,
	rest3Exp: number,
	h: number,
): boolean {
	if (!behindward) return term * tailFactor <= TAIL_FRACTION * sum;
	if (fall > 0 && term * geometricTail(fall * h) <= TAIL_FRACTION * sum) return true;
	return restNegligible(rest3, rest3Exp, sum, h);
}

/**
 * An upper bound of q/(1 - q) = 1/(e^x - 1), q = e^{-x}: the nodes beyond a term that decays at least geometrically
 * by q hold at most term times it. e^x - 1 ≥ x + x²/2 + x³/6 for x ≥ 0, so no expm1 per racer and node.
 */
export function geometricTail(x: number): number {
	return 1 / (x * (1 + x * (0.5 + x / 6)));
}

/**
 * Behind-direction bound (a racer far from the others must not be cut off before its mass is reached):
 * every racer's integrand is its density times rest(t), the probability of the others' arrangement (Π(1 - b_j), or at
 * most two others ahead), which only falls going behind. So the nodes beyond hold at most rest(t)·Σ_k density
 * ≤ rest(t)·(1 + h·max density)/h ≤ 2·rest(t)/h in node-sum units (max density ≤ 0.67 in every model, h ≤ 0.25).
 * `rest` is value·RESCALE^{-exponent}, compared in log space when scaled (it can be far below the smallest double).
 */
export function restNegligible(value: number, exponent: number, sum: number, h: number): boolean {
	if (!(value > 0)) return true;
	const limit = 0.5 * Math.max(TAIL_FRACTION * h * sum, NEGLIGIBLE_MASS);
	if (exponent === 0) return value <= limit;
	return Math.log(value) - exponent * LOG_RESCALE <= Math.log(limit);
}

export function sumOf(a: ArrayLike<number>): number {
	let s = 0;
	for (let i = 0; i < a.length; i++) s += a[i]!;
	return s;
}
