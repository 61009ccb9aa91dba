/**
 * Exact race odds from the rating systems' performance models (types.ts `Performance`): 1e-12
 * absolute, and 1e-9 relative for every P(win) and P(top 3) down to 1e-300 (docs/odds.md).
 *
 * - Closed forms where they exist (closed-forms.ts): speed-Elo is Plackett-Luce (P(win) = μ_i/Σμ, spec "Win
 *   probability"; P(top 3) O(n²)); endure fields up to ELIMINATION_MAX racers by the elimination recursion; Folyami
 *   P(win) up to GAMMA3_CLOSED_MAX racers by a positive polynomial sum, and its P(top 3) up to
 *   GAMMA3_TOP3_CLOSED_MAX racers from the P(win) of the field without one or two racers.
 * - Otherwise one 1-D integral per racer, all racers sharing the trapezoid nodes (specs/endure-elo.md, "Fast endure
 *   win probability": trapezoid in s = log x), walked out from the bulk until a log-concavity bound says every
 *   racer's remaining mass is negligible against its own (walk.ts); P(top 3) from prefix/suffix
 *   Poisson-binomials truncated at two others ahead, on the same nodes. P(win) alone has faster loops of its own:
 *   normalWin for the normal model, and for endure a pass of the walk without prefix products or an exponential per
 *   racer and node (endure-win.ts).
 * - Place distribution: at each node the Poisson-binomial distribution of how many racers beat the node value is
 *   computed once for the whole field (O(n²)); racer i is removed by stable deconvolution (O(n) per racer), then
 *   weighted by racer i's density. O(N·n²) in all. 1e-12 absolute.
 * - Expected position: 1 + Σ_{j≠i} P(j ahead of i), exact by linearity from the pairwise closed forms, O(n²).
 *
 * Self-check: ΣP(win) = 1 and ΣP(top 3) = 3 (and every row and column of the place matrix sums to 1); on failure
 * the step is halved, at most MAX_HALVINGS times, then OddsAccuracyError is thrown. The closed forms are checked
 * the same way.
 */
import type { Performance } from '../types.js';
import {
	ELIMINATION_MAX,
	endureElimination,
	GAMMA3_CLOSED_MAX,
	GAMMA3_TOP3_CLOSED_MAX,
	gamma3Top3ClosedForm,
	gamma3WinClosedForm,
	speedFieldOdds,
} from './closed-forms.js';
import { type FieldModel, type Grid, fieldModel, OddsAccuracyError, OddsInputError } from './models.js';
import { gridSums, MAX_HALVINGS, refinedWalk, sumOf, sumTolerance, walk, WIDTH_RATIO } from './walk.js';
import * as pb from './poisson-binomial.js';
import * as special from '../special.js';

// Module-local copies of functions called in inner loops (an imported binding is a getter call per use under tsx
// and vitest).
const { accumulateWithout, poissonBinomial } = pb;
const { normalCdf } = special;

export { OddsAccuracyError, OddsInputError } from './models.js';

export interface FieldOdds {
	pWin: number[];
	pTop3: number[];
	expectedPosition: number[];
}

/** The place matrix skips a racer whose density weight at a node is below this (its mass over all nodes < 1e-16). */
const NEGLIGIBLE_WEIGHT = 1e-20;

function nodeCount(grid: Grid, h: number): number {
	return Math.ceil((grid.hi - grid.lo) / h) + 1;
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
 * accuracy of a hopeless racer, whose integrand narrows like 1/√n in big fields.
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
	const support = new Int32Array(2);
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
		poissonBinomial(beat, n, full, support);
		const countLo = support[0]!;
		const countHi = support[1]!;
		for (let i = 0; i < n; i++) {
			const lw = logWeight[i]!;
			if (lw <= minLogWeight) continue;
			accumulateWithout(full, n, countLo, countHi, beat[i]!, h * Math.exp(lw), pos, i * n);
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
	if (kind === 'gamma3-shortest' && n <= GAMMA3_TOP3_CLOSED_MAX) {
		const { win, top3 } = gamma3Top3ClosedForm(field);
		checkSums(win, top3, n, 'Folyami closed form');
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
 * alone and O(n²), for callers that need no win or top-3 odds (the explanation of a change).
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
