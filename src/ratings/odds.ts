/**
 * Exact race odds from the rating systems' performance models (types.ts `Performance`).
 *
 * - P(win): one 1-D integral per racer, all racers sharing the quadrature nodes, O(n·N) for N nodes
 *   (specs/endure-elo.md, "Fast endure win probability": trapezoid in s = log x, h = 0.1, log-sum product).
 *   exp-shortest (speed-Elo) has the closed form μ_i/Σμ (spec, "Win probability").
 * - Place distribution: at each node the Poisson-binomial distribution of how many racers beat the node value is
 *   computed once for the whole field (O(n²)); racer i is removed by stable deconvolution (O(n) per racer), then
 *   weighted by racer i's density. O(N·n²) in all.
 * - P(top 3): prefix/suffix Poisson-binomial truncated at two others ahead, O(N·n).
 * - Expected position: 1 + Σ_{j≠i} P(j ahead of i), exact by linearity from the pairwise closed forms, O(n²).
 *
 * Accuracy target: 1e-12 absolute. Self-check: ΣP(win) = 1 (and every row and column of the place matrix sums
 * to 1); on failure the step is halved, at most MAX_HALVINGS times, then OddsAccuracyError is thrown.
 */
import type { Performance } from './types.js';
import { type FieldModel, type Grid, fieldModel, OddsInputError } from './odds-models.js';
import * as pb from './poisson-binomial.js';
import * as special from './special.js';

// Module-local copies of functions called in inner loops (an imported binding is a getter call per use under tsx
// and vitest).
const { accumulateWithout, poissonBinomial, truncatedPrefixSuffix } = pb;
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
/**
 * A P(win) term exp(e)/div with e below this is skipped: div ≥ 1e-7 (odds-models.ts), so the term is below
 * e^-62·1e7 = 1.2e-20, under 1e-16 summed over 10⁴ nodes.
 */
const NEGLIGIBLE_LOG_TERM = -62;
/** A racer whose density weight at a node is below this is skipped there (its mass over all nodes < 1e-16). */
const NEGLIGIBLE_WEIGHT = 1e-20;

/** Tolerance of the ΣP = 1 self-check: 1e-12 plus the rounding of an n-term sum. */
function sumTolerance(n: number): number {
	return 1e-12 + n * 4e-16;
}

function nodeCount(grid: Grid, h: number): number {
	return Math.ceil((grid.hi - grid.lo) / h) + 1;
}

/**
 * P(win) for every racer by the shared-node trapezoid (spec: P_i ≈ h Σ_k exp(logw_i + L - log(1 - b_i)),
 * L = Σ_j log(1 - b_j) at the node).
 */
function winByQuadrature(model: FieldModel, h: number): Float64Array {
	const n = model.n;
	const p = new Float64Array(n);
	if (model.win) {
		model.win(h, p);
		return p;
	}
	const logWeight = new Float64Array(n);
	const shift = new Float64Array(n);
	const div = new Float64Array(n);
	const grid = model.grid(1);
	const { lo } = grid;
	const count = nodeCount(grid, h);
	for (let k = 0; k < count; k++) {
		const total = model.fillWinTerms(lo + k * h, logWeight, shift, div);
		for (let i = 0; i < n; i++) {
			// exp(logw_i + L - log(1 - b_i)), with log(1 - b_i) = log(div_i) - shift_i.
			const e = logWeight[i]! + total + shift[i]!;
			if (e > NEGLIGIBLE_LOG_TERM) p[i] = p[i]! + Math.exp(e) / div[i]!;
		}
	}
	for (let i = 0; i < n; i++) p[i] = p[i]! * h;
	return p;
}

function sumOf(a: ArrayLike<number>): number {
	let s = 0;
	for (let i = 0; i < a.length; i++) s += a[i]!;
	return s;
}

function clamp01(x: number): number {
	return x < 0 ? 0 : x > 1 ? 1 : x;
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
	const model = fieldModel(field);
	if (n === 1) return [1];
	let h = model.step(1);
	let err = Infinity;
	for (let attempt = 0; attempt <= MAX_HALVINGS; attempt++, h /= 2) {
		const p = winByQuadrature(model, h);
		err = Math.abs(sumOf(p) - 1);
		if (err <= sumTolerance(n)) return Array.from(p, clamp01);
	}
	throw new OddsAccuracyError(`P(win) quadrature: |ΣP - 1| = ${err} after ${MAX_HALVINGS} halvings of h (n = ${n})`);
}

/**
 * P(win) at a given trapezoid step h, without the ΣP = 1 retry: for accuracy studies (tests, docs/odds.md).
 * exp-shortest uses the integral here too, not its closed form.
 */
export function winProbabilitiesWithStep(field: readonly Performance[], h: number): number[] {
	if (field.length === 0) return [];
	return Array.from(winByQuadrature(fieldModel(field), h));
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

/** P(top 3) and P(win) for every racer at step h, by truncated prefix/suffix Poisson-binomials. */
function top3ByQuadrature(model: FieldModel, h: number): { win: Float64Array; top3: Float64Array } {
	const n = model.n;
	const win = new Float64Array(n);
	const top3 = new Float64Array(n);
	const beat = new Float64Array(n);
	const logWeight = new Float64Array(n);
	const pre = new Float64Array(3 * n);
	const suf = new Float64Array(3 * n);
	const grid = model.grid(3);
	const { lo } = grid;
	const count = nodeCount(grid, h);
	const minLogWeight = Math.log(NEGLIGIBLE_WEIGHT);
	for (let k = 0; k < count; k++) {
		const t = lo + k * h;
		model.fillLogWeight(t, logWeight);
		model.fillBeat(t, beat);
		truncatedPrefixSuffix(beat, n, pre, suf);
		for (let i = 0; i < n; i++) {
			const lw = logWeight[i]!;
			if (lw <= minLogWeight) continue;
			const w = h * Math.exp(lw);
			const a0 = pre[3 * i]!;
			const a1 = pre[3 * i + 1]!;
			const a2 = pre[3 * i + 2]!;
			const b0 = suf[3 * i]!;
			const b1 = suf[3 * i + 1]!;
			const b2 = suf[3 * i + 2]!;
			const q0 = a0 * b0;
			win[i] = win[i]! + w * q0;
			top3[i] = top3[i]! + w * (q0 + a0 * b1 + a1 * b0 + a0 * b2 + a1 * b1 + a2 * b0);
		}
	}
	return { win, top3 };
}

/** P(top 3) at a given step h, without the retry: for accuracy studies. */
export function top3WithStep(field: readonly Performance[], h: number): number[] {
	if (field.length === 0) return [];
	return Array.from(top3ByQuadrature(fieldModel(field), h).top3);
}

/** P(win), P(top 3) and expected finishing position (1 = first) for every racer of one field. */
export function fieldOdds(field: readonly Performance[]): FieldOdds {
	const n = field.length;
	if (n === 0) return { pWin: [], pTop3: [], expectedPosition: [] };
	const pWin = winProbabilities(field);
	const expectedPosition = expectedPositions(field);
	if (n <= 3) return { pWin, pTop3: new Array<number>(n).fill(1), expectedPosition };
	const model = fieldModel(field);
	let h = model.step(3);
	let err = Infinity;
	for (let attempt = 0; attempt <= MAX_HALVINGS; attempt++, h /= 2) {
		const { win, top3 } = top3ByQuadrature(model, h);
		// Σ P(top 3) = 3 and Σ P(win) = 1 on the same nodes.
		err = Math.max(Math.abs(sumOf(win) - 1), Math.abs(sumOf(top3) - 3) / 3);
		if (err <= sumTolerance(n)) return { pWin, pTop3: Array.from(top3, clamp01), expectedPosition };
	}
	throw new OddsAccuracyError(`top-3 quadrature: sums off by ${err} after ${MAX_HALVINGS} halvings (n = ${n})`);
}

/**
 * Expected finishing place: 1 + Σ_{j≠i} P(j ahead of i), pairwise closed forms. fieldOdds' `expectedPosition`,
 * alone and O(n²), for callers that need no win or top-3 odds (the explanation of a change, issue 8 §4).
 */
export function expectedPositions(field: readonly Performance[]): number[] {
	const n = field.length;
	const e = new Float64Array(n).fill(1);
	for (let i = 0; i < n; i++) {
		for (let j = i + 1; j < n; j++) {
			const [iAhead, jAhead] = pairProbabilities(field[i]!, field[j]!);
			e[i] = e[i]! + jAhead;
			e[j] = e[j]! + iAhead;
		}
	}
	return Array.from(e);
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
