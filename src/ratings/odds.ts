/**
 * Exact race odds from the rating systems' performance models (types.ts `Performance`), issue 10 §1: 1e-12
 * absolute, and 1e-9 relative for every P(win) and P(top 3) down to 1e-300 (docs/odds.md).
 *
 * - Closed forms where they exist (odds-closed-forms.ts): speed-Elo is Plackett-Luce (P(win) = μ_i/Σμ, spec "Win
 *   probability"; P(top 3) O(n²)); endure fields up to ELIMINATION_MAX racers by the elimination recursion; Folyami
 *   P(win) up to GAMMA3_CLOSED_MAX racers by a positive polynomial sum.
 * - Otherwise one 1-D integral per racer, all racers sharing the trapezoid nodes (specs/endure-elo.md, "Fast endure
 *   win probability": trapezoid in s = log x), walked out from the bulk until a log-concavity bound says every
 *   racer's remaining mass is negligible against its own (walk); P(top 3) from prefix/suffix Poisson-binomials
 *   truncated at two others ahead, on the same nodes. The normal model has its own P(win) loop (normalWin).
 * - Place distribution: at each node the Poisson-binomial distribution of how many racers beat the node value is
 *   computed once for the whole field (O(n²)); racer i is removed by stable deconvolution (O(n) per racer), then
 *   weighted by racer i's density. O(N·n²) in all. 1e-12 absolute.
 * - Expected position: 1 + Σ_{j≠i} P(j ahead of i), exact by linearity from the pairwise closed forms, O(n²).
 *
 * Self-check: ΣP(win) = 1 and ΣP(top 3) = 3 (and every row and column of the place matrix sums to 1); on failure
 * the step is halved, at most MAX_HALVINGS times, then OddsAccuracyError is thrown. The closed forms are checked
 * the same way.
 */
import type { Performance } from './types.js';
import {
	ELIMINATION_MAX,
	endureElimination,
	GAMMA3_CLOSED_MAX,
	gamma3WinClosedForm,
	speedFieldOdds,
} from './odds-closed-forms.js';
import { type FieldModel, type Grid, fieldModel, OddsInputError } from './odds-models.js';
import * as pb from './poisson-binomial.js';
import * as special from './special.js';

// Module-local copies of functions called in inner loops (an imported binding is a getter call per use under tsx
// and vitest).
const { accumulateWithout, poissonBinomial } = pb;
const { normalCdf } = special;

export { OddsInputError } from './odds-models.js';

export interface FieldOdds {
	pWin: number[];
	pTop3: number[];
	expectedPosition: number[];
}

/** The quadrature did not reach the accuracy target after the allowed step halvings. */
export class OddsAccuracyError extends Error {
	override readonly name = 'OddsAccuracyError';
}

const MAX_HALVINGS = 3;
/** The walk stops once, for every racer, the nodes beyond hold less than this fraction of its sum so far. */
const TAIL_FRACTION = 1e-13;
/** A safety net against a stopping rule that never fires (it cannot for valid inputs: the slopes diverge). */
const MAX_NODES = 200_000;
/** Running products are renormalized by 1e200 whenever they drop below 1e-200 (the count goes to the exponent). */
const RESCALE = 1e200;
const RESCALE_LIMIT = 1e-200;
const LOG_RESCALE = Math.log(RESCALE);
/** The place matrix skips a racer whose density weight at a node is below this (its mass over all nodes < 1e-16). */
const NEGLIGIBLE_WEIGHT = 1e-20;
/**
 * Every racer's integrand must be at least this many steps wide (standard deviation in t): e^{-2π²·1.15²} = 5e-12,
 * the trapezoid's relative error on a Gaussian of that width, well inside the 1e-9 relative target.
 */
const WIDTH_RATIO = 1.15;
/** Slots of FieldModel.fillNode's slope output. */
const NODE_SLOPES = 2;
/**
 * A racer's remaining nodes may be dropped when they hold at most this much probability in all, whatever its sum
 * so far: 1e-10 of the smallest probability held to relative accuracy (1e-300, issue 10 §1).
 */
const NEGLIGIBLE_MASS = 1e-310;
/** The smallest probability held to 1e-9 relative accuracy (issue 10 §1). */
const SMALLEST_RELATIVE = 1e-300;

/** Tolerance of the ΣP = 1 self-check: 1e-12 plus the rounding of an n-term sum. */
function sumTolerance(n: number): number {
	return 1e-12 + n * 4e-16;
}

function nodeCount(grid: Grid, h: number): number {
	return Math.ceil((grid.hi - grid.lo) / h) + 1;
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
 * Stopping (issue 10 §1, relative accuracy; every bound holds at every node beyond, so no stretch where the terms
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
function walk(model: FieldModel, h: number, offset: number, sums: GridSums): void {
	const n = model.n;
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
				// Every density underflows here (a racer far ahead of the rest, issue 10 §1): jump to the last node
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

function gridSums(n: number, withTop3: boolean): GridSums {
	const key = withTop3 ? 'top3' : 'win';
	if (reusedSums[key].win.length < n)
		reusedSums[key] = new GridSums(Math.max(n, 2 * reusedSums[key].win.length), withTop3);
	return reusedSums[key].reset(n);
}

/**
 * P(win) (and P(top 3) when `top3` is given) by the walk at step h, refined by halving the grid's spacing (at most
 * MAX_HALVINGS times) while a sum check fails (ΣP(win) = 1, ΣP(top 3) = 3) or some racer's integrand is narrower
 * than WIDTH_RATIO spacings (the relative accuracy of a hopeless racer, issue 10 §1, whose integrand narrows like
 * 1/√n in big fields). Throws OddsAccuracyError, named by `what`, when the sums are still off after the last
 * halving.
 */
function refinedWalk(
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
function geometricTail(x: number): number {
	return 1 / (x * (1 + x * (0.5 + x / 6)));
}

/**
 * Behind-direction bound (issue 10 §1: a racer far from the others must not be cut off before its mass is reached):
 * every racer's integrand is its density times rest(t), the probability of the others' arrangement (Π(1 - b_j), or at
 * most two others ahead), which only falls going behind. So the nodes beyond hold at most rest(t)·Σ_k density
 * ≤ rest(t)·(1 + h·max density)/h ≤ 2·rest(t)/h in node-sum units (max density ≤ 0.67 in every model, h ≤ 0.25).
 * `rest` is value·RESCALE^{-exponent}, compared in log space when scaled (it can be far below the smallest double).
 */
function restNegligible(value: number, exponent: number, sum: number, h: number): boolean {
	if (!(value > 0)) return true;
	const limit = 0.5 * Math.max(TAIL_FRACTION * h * sum, NEGLIGIBLE_MASS);
	if (exponent === 0) return value <= limit;
	return Math.log(value) - exponent * LOG_RESCALE <= Math.log(limit);
}

function sumOf(a: ArrayLike<number>): number {
	let s = 0;
	for (let i = 0; i < a.length; i++) s += a[i]!;
	return s;
}

function clamp01(x: number): number {
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** A typed array as a plain array of values clamped to [0, 1] (a loop: Array.from with a map is slower in V8). */
function clamped(a: Float64Array): number[] {
	const out = new Array<number>(a.length);
	for (let i = 0; i < a.length; i++) out[i] = clamp01(a[i]!);
	return out;
}

function plain(a: Float64Array): number[] {
	const out = new Array<number>(a.length);
	for (let i = 0; i < a.length; i++) out[i] = a[i]!;
	return out;
}

function validateKinds(field: readonly Performance[]): void {
	// fieldModel checks kinds too; this covers the closed-form paths that skip it.
	const kind = field[0]?.kind;
	for (let j = 1; j < field.length; j++) {
		if (field[j]!.kind !== kind) {
			throw new OddsInputError(
				`all performances of a field must share one kind: racer 0 is ${kind}, racer ${j} is ${field[j]!.kind}`,
			);
		}
	}
}

/** Rates of a rate model must be finite and positive, and span at most 280 orders of magnitude. */
function validateRates(field: readonly Performance[]): void {
	let min = Infinity;
	let max = 0;
	for (let j = 0; j < field.length; j++) {
		const p = field[j]!;
		const rate = p.kind === 'normal-highest' ? Number.NaN : p.rate;
		if (!(Number.isFinite(rate) && rate > 0))
			throw new OddsInputError(`racer ${j}: rate must be finite and > 0, got ${rate}`);
		if (rate < min) min = rate;
		if (rate > max) max = rate;
	}
	if (!(min / max > 1e-280)) throw new OddsInputError('rates span more than 280 orders of magnitude');
}

function speedClosedForm(field: readonly Performance[]): number[] {
	// Spec "Win probability": P_j = μ_j / Σμ.
	let max = 0;
	for (let j = 0; j < field.length; j++) {
		const p = field[j]!;
		if (p.kind !== 'exp-shortest' || !(Number.isFinite(p.rate) && p.rate > 0)) {
			throw new OddsInputError(`racer ${j}: rate must be finite and > 0`);
		}
		if (p.rate > max) max = p.rate;
	}
	let sum = 0;
	for (const p of field) sum += (p as { rate: number }).rate / max;
	return field.map((p) => (p as { rate: number }).rate / max / sum);
}

/** P(win) for every racer of one field (same order). Sums to 1. */
export function winProbabilities(field: readonly Performance[]): number[] {
	const n = field.length;
	if (n === 0) return [];
	validateKinds(field);
	if (field[0]!.kind === 'exp-shortest') return speedClosedForm(field);
	if (n === 1) {
		fieldModel(field);
		return [1];
	}
	if (field[0]!.kind === 'exp-longest' && n <= ELIMINATION_MAX) {
		validateRates(field);
		const { win } = endureElimination(field, false);
		checkSums(win, [3], n, 'elimination');
		return clamped(win);
	}
	if (field[0]!.kind === 'gamma3-shortest' && n <= GAMMA3_CLOSED_MAX) {
		validateRates(field);
		const win = gamma3WinClosedForm(field);
		checkSums(win, [3], n, 'Folyami closed form');
		return clamped(win);
	}
	const model = fieldModel(field);
	const p = new Float64Array(n);
	if (!model.win) {
		refinedWalk(model, model.step(1), p, undefined, 'P(win) quadrature');
		return clamped(p);
	}
	// The normal model's own loop: a new pass at the next step (nextStep).
	let h = model.step(1);
	let err = Infinity;
	for (let attempt = 0; attempt <= MAX_HALVINGS; attempt++) {
		const width = model.win(h, p);
		err = Math.abs(sumOf(p) - 1);
		const sumsOk = err <= sumTolerance(n);
		if (sumsOk && (width >= WIDTH_RATIO * h || attempt === MAX_HALVINGS)) return clamped(p);
		h = nextStep(h, width, sumsOk);
	}
	throw new OddsAccuracyError(`P(win) quadrature: |ΣP - 1| = ${err} after ${MAX_HALVINGS} halvings of h (n = ${n})`);
}

/**
 * The step of the next attempt: half the step when a sum check failed, and at most the narrowest integrand's
 * width / WIDTH_RATIO (no less than h/8) when some racer's integrand is too narrow for the grid: the relative
 * accuracy of a hopeless racer (issue 10 §1), whose integrand narrows like 1/√n in big fields.
 */
function nextStep(h: number, width: number, sumsOk: boolean): number {
	const narrow = Math.max(h / 8, width / WIDTH_RATIO);
	return sumsOk ? Math.min(h, narrow) : Math.min(h / 2, narrow);
}

/** P(win) at step h into p, one pass without checks: the model's own loop (normal) or the walk. */
function winByQuadrature(model: FieldModel, h: number, p: Float64Array): void {
	if (model.win) {
		model.win(h, p);
		return;
	}
	const sums = gridSums(model.n, false);
	walk(model, h, 0, sums);
	for (let i = 0; i < model.n; i++) p[i] = sums.win[i]! * h;
}

/**
 * P(win) at a given trapezoid step h, without the ΣP = 1 retry: for accuracy studies (tests, docs/odds.md).
 * exp-shortest and small exp-longest fields use the integral here too, not their closed forms.
 */
export function winProbabilitiesWithStep(field: readonly Performance[], h: number): number[] {
	if (field.length === 0) return [];
	const model = fieldModel(field);
	const p = new Float64Array(model.n);
	winByQuadrature(model, h, p);
	return Array.from(p);
}

/** The full place matrix at a given step h, without the retry: for accuracy studies. */
export function positionDistributionWithStep(field: readonly Performance[], h: number): number[][] {
	const n = field.length;
	const pos = placesByQuadrature(fieldModel(field), h);
	return Array.from({ length: n }, (_, i) => Array.from(pos.subarray(i * n, (i + 1) * n)));
}

/** Place matrix (flat n×n, row i = racer, column c = place c+1) at step h. */
function placesByQuadrature(model: FieldModel, h: number): Float64Array {
	const n = model.n;
	const pos = new Float64Array(n * n);
	const beat = new Float64Array(n);
	const logWeight = new Float64Array(n);
	const full = new Float64Array(n + 1);
	const grid = model.grid(n);
	const { lo } = grid;
	const count = nodeCount(grid, h);
	const minLogWeight = Math.log(NEGLIGIBLE_WEIGHT);
	for (let k = 0; k < count; k++) {
		const t = lo + k * h;
		model.fillLogWeight(t, logWeight);
		let any = false;
		for (let i = 0; i < n; i++) {
			if (logWeight[i]! > minLogWeight) {
				any = true;
				break;
			}
		}
		if (!any) continue;
		model.fillBeat(t, beat);
		poissonBinomial(beat, n, full);
		for (let i = 0; i < n; i++) {
			const lw = logWeight[i]!;
			if (lw <= minLogWeight) continue;
			accumulateWithout(full, n, beat[i]!, h * Math.exp(lw), pos, i * n);
		}
	}
	return pos;
}

/** Largest deviation from 1 of the row and column sums of a flat n×n matrix. */
function stochasticError(pos: Float64Array, n: number): number {
	let err = 0;
	const col = new Float64Array(n);
	for (let i = 0; i < n; i++) {
		let row = 0;
		for (let c = 0; c < n; c++) {
			const v = pos[i * n + c]!;
			row += v;
			col[c] = col[c]! + v;
		}
		err = Math.max(err, Math.abs(row - 1));
	}
	for (let c = 0; c < n; c++) err = Math.max(err, Math.abs(col[c]! - 1));
	return err;
}

/** positionDistribution(field)[i][c] = P(racer i finishes at place c + 1). Rows and columns sum to 1. */
export function positionDistribution(field: readonly Performance[]): number[][] {
	const n = field.length;
	if (n === 0) return [];
	const model = fieldModel(field);
	if (n === 1) return [[1]];
	let h = model.step(n);
	let err = Infinity;
	for (let attempt = 0; attempt <= MAX_HALVINGS; attempt++, h /= 2) {
		const pos = placesByQuadrature(model, h);
		err = stochasticError(pos, n);
		if (err <= sumTolerance(n)) {
			const rows: number[][] = [];
			for (let i = 0; i < n; i++) rows.push(Array.from(pos.subarray(i * n, (i + 1) * n), clamp01));
			return rows;
		}
	}
	throw new OddsAccuracyError(
		`place quadrature: row/column sums off by ${err} after ${MAX_HALVINGS} halvings (n = ${n})`,
	);
}

/** P(top 3) at a given step h, without the retry: for accuracy studies. */
export function top3WithStep(field: readonly Performance[], h: number): number[] {
	if (field.length === 0) return [];
	const model = fieldModel(field);
	const sums = gridSums(model.n, true);
	walk(model, h, 0, sums);
	return Array.from(sums.top3!.subarray(0, model.n), (v) => v * h);
}

/** P(win), P(top 3) and expected finishing position (1 = first) for every racer of one field. */
export function fieldOdds(field: readonly Performance[]): FieldOdds {
	const n = field.length;
	if (n === 0) return { pWin: [], pTop3: [], expectedPosition: [] };
	validateKinds(field);
	const kind = field[0]!.kind;
	if (kind === 'exp-shortest') {
		validateRates(field);
		const odds = speedFieldOdds(field);
		checkSums(odds.pWin, n <= 3 ? [3] : odds.pTop3, n, 'Plackett-Luce');
		return odds;
	}
	const expectedPosition = expectedPositions(field);
	if (n <= 3) return { pWin: winProbabilities(field), pTop3: new Array<number>(n).fill(1), expectedPosition };
	if (kind === 'exp-longest' && n <= ELIMINATION_MAX) {
		// expectedPositions has validated the rates.
		const { win, top3 } = endureElimination(field, true);
		checkSums(win, top3, n, 'elimination');
		return { pWin: clamped(win), pTop3: clamped(top3), expectedPosition };
	}
	const model = fieldModel(field);
	const win = new Float64Array(n);
	const top3 = new Float64Array(n);
	// Σ P(top 3) = 3 and Σ P(win) = 1 on the same nodes.
	refinedWalk(model, model.step(3), win, top3, 'top-3 quadrature');
	return { pWin: clamped(win), pTop3: clamped(top3), expectedPosition };
}

/** The self-check of the closed forms: Σ P(win) = 1 and Σ P(top 3) = 3 (a guard against a wrong formula). */
function checkSums(win: ArrayLike<number>, top3: ArrayLike<number>, n: number, what: string): void {
	const err = Math.max(Math.abs(sumOf(win) - 1), Math.abs(sumOf(top3) - 3) / 3);
	if (!(err <= sumTolerance(n) + n * 1e-15)) {
		throw new OddsAccuracyError(`${what}: P(win) or P(top 3) sums off by ${err} (n = ${n})`);
	}
}

/**
 * Expected finishing place: 1 + Σ_{j≠i} P(j ahead of i), pairwise closed forms. fieldOdds' `expectedPosition`,
 * alone and O(n²), for callers that need no win or top-3 odds (the explanation of a change, issue 8 §4).
 */
export function expectedPositions(field: readonly Performance[]): number[] {
	const n = field.length;
	const e = new Float64Array(n).fill(1);
	const kind = field[0]!.kind;
	if (kind === 'normal-highest') {
		const mean = new Float64Array(n);
		const variance = new Float64Array(n);
		for (let j = 0; j < n; j++) {
			const p = field[j] as { mean: number; sd: number };
			if (!Number.isFinite(p.mean) || !(Number.isFinite(p.sd) && p.sd > 0)) {
				throw new OddsInputError('normal performance needs a finite mean and sd > 0');
			}
			mean[j] = p.mean;
			variance[j] = p.sd * p.sd;
		}
		for (let i = 0; i < n; i++) {
			const mi = mean[i]!;
			const vi = variance[i]!;
			let ei = e[i]!;
			for (let j = i + 1; j < n; j++) {
				// One Φ per pair: the smaller of Φ(±d) directly, the other as 1 minus it (≥ 1/2: no cancellation).
				const d = (mi - mean[j]!) / Math.sqrt(vi + variance[j]!);
				const low = normalCdf(-Math.abs(d));
				const iAhead = d >= 0 ? 1 - low : low;
				const jAhead = d >= 0 ? low : 1 - low;
				ei += jAhead;
				e[j] = e[j]! + iAhead;
			}
			e[i] = ei;
		}
		return plain(e);
	}
	validateRates(field);
	const rate = new Float64Array(n);
	for (let j = 0; j < n; j++) rate[j] = (field[j] as { rate: number }).rate;
	for (let i = 0; i < n; i++) {
		const ri = rate[i]!;
		let ei = e[i]!;
		for (let j = i + 1; j < n; j++) {
			const rj = rate[j]!;
			const sum = ri + rj;
			const pi = ri / sum;
			const pj = rj / sum;
			let iAhead: number;
			let jAhead: number;
			if (kind === 'exp-longest') {
				iAhead = pj; // P(T_i > T_j) = λ_j/(λ_i + λ_j)
				jAhead = pi;
			} else if (kind === 'exp-shortest') {
				iAhead = pi;
				jAhead = pj;
			} else {
				iAhead = pi * pi * pi * (1 + 3 * pj + 6 * pj * pj);
				jAhead = pj * pj * pj * (1 + 3 * pi + 6 * pi * pi);
			}
			ei += jAhead;
			e[j] = e[j]! + iAhead;
		}
		e[i] = ei;
	}
	return plain(e);
}

/**
 * [P(a ahead of b), P(b ahead of a)], each computed directly (no 1 - p cancellation).
 * - exp-longest: P(T_a > T_b) = λ_b/(λ_a + λ_b).
 * - exp-shortest: P(T_a < T_b) = μ_a/(μ_a + μ_b).
 * - gamma3-shortest: T_a < T_b iff the third event of the merged Poisson processes' a-stream comes before the
 *   third of b's: with p = θ_a/(θ_a+θ_b), q = θ_b/(θ_a+θ_b), negative binomial Σ_{k=0}^{2} C(2+k,k) p³ q^k
 *   = p³(1 + 3q + 6q²).
 * - normal-highest: P(X_a > X_b) = Φ((m_a - m_b)/√(σ_a² + σ_b²)).
 */
function pairProbabilities(a: Performance, b: Performance): [number, number] {
	switch (a.kind) {
		case 'exp-longest': {
			if (b.kind !== a.kind) break;
			checkRate(a.rate);
			checkRate(b.rate);
			const s = a.rate + b.rate;
			return [b.rate / s, a.rate / s];
		}
		case 'exp-shortest': {
			if (b.kind !== a.kind) break;
			checkRate(a.rate);
			checkRate(b.rate);
			const s = a.rate + b.rate;
			return [a.rate / s, b.rate / s];
		}
		case 'gamma3-shortest': {
			if (b.kind !== a.kind) break;
			checkRate(a.rate);
			checkRate(b.rate);
			const s = a.rate + b.rate;
			const p = a.rate / s;
			const q = b.rate / s;
			return [p * p * p * (1 + 3 * q + 6 * q * q), q * q * q * (1 + 3 * p + 6 * p * p)];
		}
		case 'normal-highest': {
			if (b.kind !== a.kind) break;
			if (!Number.isFinite(a.mean) || !Number.isFinite(b.mean) || !(a.sd > 0) || !(b.sd > 0)) {
				throw new OddsInputError('normal performance needs a finite mean and sd > 0');
			}
			const d = (a.mean - b.mean) / Math.hypot(a.sd, b.sd);
			return [normalCdf(d), normalCdf(-d)];
		}
	}
	throw new OddsInputError(`head-to-head needs one kind, got ${a.kind} and ${b.kind}`);
}

function checkRate(rate: number): void {
	if (!(Number.isFinite(rate) && rate > 0)) throw new OddsInputError(`rate must be finite and > 0, got ${rate}`);
}

/** P(a finishes ahead of b). */
export function headToHead(a: Performance, b: Performance): number {
	return pairProbabilities(a, b)[0];
}
