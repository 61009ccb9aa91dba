/**
 * endure-Elo's (exp-longest) P(win) pass (speed above the elimination recursion's 10 racers). It keeps
 * the walk's contract (walk.ts): the same nodes s = log x, start node and stopping rules, and the same node sums
 * and moments for refinedWalk's sum and width checks. Two things make it faster (35-48% at 11 to 1000 racers):
 * - One product per node instead of the walk's prefix and suffix products. Racer i's integrand is
 *   f_i = λ_i·x·e^{-a_i}·Π_{j≠i}(1 - e^{-a_j}) = E·g(a_i), with a = λx, E = Π_j (1 - e^{-a_j}) and
 *   g(a) = a·e^{-a}/(1 - e^{-a}), the g of the slope bound. Every factor is a positive number computed to full
 *   relative accuracy, so a hopeless racer's tiny term keeps its digits.
 * - No exponential per racer and node. The P(win) step is ln 2/m (expModel), so node k + m lies at twice node k's x:
 *   e^{-a(k+m)} = (e^{-a(k)})² and 1 - e^{-a(k+m)} = (1 - e^{-a(k)})·(1 + e^{-a(k)}); going down,
 *   e^{-a(k-m)} = √(e^{-a(k)}) and 1 - e^{-a(k-m)} = (1 - e^{-a(k)})/(1 + e^{-a(k-m)}). Each racer takes fresh
 *   exponentials at the first m nodes of each direction only. Rounding (chainsUp, chainsDown): 1 - e^{-a} gains
 *   about 2 ulp of relative error per octave; e^{-a} loses none going down, and going up doubles its relative error
 *   with a, which stays below 3 ulp·a/0.7: 1e-14 at a = 10, 2e-12 at a = 745 where e^{-a} underflows (a racer's
 *   terms that far out are below a·e^{-a} of its own peak). On 300 random fields of 11 to 70 racers (one hopeless
 *   racer in half of them, P(win) down to 1e-43) the pass is within 7.8e-15 relative of the same pass with a fresh
 *   exponential at every node.
 * docs/odds.md, "endure P(win)".
 */
import { OddsAccuracyError } from './errors.js';
import {
	LOG_RESCALE,
	MAX_NODES,
	RESCALE,
	RESCALE_LIMIT,
	TAIL_FRACTION,
	geometricTail,
	restNegligible,
} from './walk.js';

/** Below this a, 1 - e^{-a} is computed directly (expm1) and e^{-a} as 1 minus it; above, the other way round. */
const SMALL_A = 0.7;
/** Going down, √(e^{-a}) of a value this small (or subnormal, or 0 after underflow) is taken fresh instead. */
const CHAIN_FLOOR = 1e-290;

/**
 * Scratch of the pass, reused across calls (grown as needed): a, e^{-a} and 1 - e^{-a} of every racer in each of the m
 * chains (slot (k mod m)·n + j holds node k's), and per racer g(a) at the node and the pass's own node sums.
 */
let chainA = new Float64Array(0);
let chainY = new Float64Array(0);
let chainC = new Float64Array(0);
let ratio = new Float64Array(0);
let passSums = new Float64Array(0);

function ensureScratch(n: number, m: number): void {
	if (chainA.length < n * m) {
		chainA = new Float64Array(2 * n * m);
		chainY = new Float64Array(2 * n * m);
		chainC = new Float64Array(2 * n * m);
	}
	if (ratio.length < n) {
		ratio = new Float64Array(2 * n);
		passSums = new Float64Array(2 * n);
	}
}

/** The P(win) node sums of a grid and their first and second moments (the walk's GridSums). */
export interface WinSums {
	readonly win: Float64Array;
	readonly m1: Float64Array;
	readonly m2: Float64Array;
}

/**
 * The number m of steps per octave of x when h = ln 2/m (to 1e-12), else 0: the chains need node k + m at twice node
 * k's x. The engine's endure steps are of that form (expModel); other steps (accuracy studies) take a fresh
 * exponential at every node.
 */
export function stepsPerOctave(h: number): number {
	const m = Math.round(Math.LN2 / h);
	return m >= 1 && Math.abs(m * h - Math.LN2) <= 1e-12 ? m : 0;
}

/**
 * One P(win) pass of the walk for exp-longest (`walk`'s contract without P(top 3)): nodes s = start + offset ± k·h,
 * walked up from k = 0 and then down from k = 1 until the walk's stopping rule holds for every racer; adds every
 * racer's node sums into sums.win and their moments (about start) into sums.m1 and sums.m2. `rate` holds the scaled
 * rates (largest 1).
 */
export function endureWinPass(
	rate: Float64Array,
	n: number,
	start: number,
	h: number,
	offset: number,
	sums: WinSums,
): void {
	const m = stepsPerOctave(h);
	const chains = m > 0;
	// Node k's chain slot is k mod period: m chains, or one slot rewritten fresh at every node.
	const period = chains ? m : 1;
	ensureScratch(n, period);
	const A = chainA;
	const Y = chainY;
	const C = chainC;
	const g = ratio;
	const pass = passSums;
	const m1 = sums.m1;
	const m2 = sums.m2;
	pass.fill(0, 0, n);
	let nodes = 0;
	for (let dir = 1; dir >= -1; dir -= 2) {
		for (let k = dir === 1 ? 0 : 1; ; k++) {
			if (++nodes > MAX_NODES) throw new OddsAccuracyError(`odds quadrature did not converge (n = ${n})`);
			const tau = offset + dir * k * h;
			// The first m nodes of each direction start the chains; node k + m (k - m going down) continues node k's.
			const fresh = !chains || (dir === 1 ? k < m : k <= m);
			const x = fresh ? Math.exp(start + tau) : 0;
			const at = (k % period) * n;
			let E = 1; // Π_j (1 - e^{-a_j})·RESCALE^{eE}
			let eE = 0;
			let gSum = 0;
			let hi = -Infinity;
			let lo = Infinity;
			if (fresh) startChains(rate, x, at, n);
			else if (dir > 0) chainsUp(at, n);
			else chainsDown(at, n);
			for (let j = 0; j < n; j++) {
				const a = A[at + j]!;
				const y = Y[at + j]!;
				const c = C[at + j]!;
				// g(a) = a·e^{-a}/(1 - e^{-a}) → 1 as a → 0 (1 - e^{-a} is 0 only when a underflows).
				const gj = c > 0 ? (a * y) / c : 1;
				g[j] = gj;
				gSum += gj;
				const ag = a + gj;
				if (ag > hi) hi = ag;
				if (ag < lo) lo = ag;
				E *= c;
				if (E < RESCALE_LIMIT) {
					E *= RESCALE;
					eE++;
				}
			}
			// d/ds log f_i = 1 - a_i + Σ_{j≠i} g(a_j) = 1 + Σg - (a_i + g_i): between 1 + Σg - hi and 1 + Σg - lo.
			const decay = dir > 0 ? lo - 1 - gSum : 1 + gSum - hi;
			const tailFactor = decay > 0 ? geometricTail(decay * h) : Infinity;
			const behindward = dir < 0;
			const scaled = eE === 0 ? E : E * Math.exp(-eE * LOG_RESCALE);
			let done = true;
			for (let i = 0; i < n; i++) {
				const term = scaled * g[i]!;
				const sum = pass[i]! + term;
				pass[i] = sum;
				m1[i] = m1[i]! + term * tau;
				m2[i] = m2[i]! + term * tau * tau;
				if (done && !(term * tailFactor <= TAIL_FRACTION * sum)) {
					// Going behind, Π_{j≠i}(1 - e^{-a_j}) = E/(1 - e^{-a_i}) only falls (walk's restNegligible).
					done = behindward && restNegligible(E / C[at + i]!, eE, sum, h);
				}
			}
			if (done) break;
		}
	}
	const total = sums.win;
	for (let i = 0; i < n; i++) total[i] = total[i]! + pass[i]!;
}

/** a, e^{-a} and 1 - e^{-a} of racer j at x (the smaller of the two directly), into the chain slot `at + j`. */
function startChains(rate: Float64Array, x: number, at: number, n: number): void {
	const A = chainA;
	const Y = chainY;
	const C = chainC;
	for (let j = 0; j < n; j++) {
		const a = rate[j]! * x;
		setFresh(A, Y, C, at + j, a);
	}
}

function setFresh(A: Float64Array, Y: Float64Array, C: Float64Array, slot: number, a: number): void {
	A[slot] = a;
	if (a < SMALL_A) {
		const c = -Math.expm1(-a);
		C[slot] = c;
		Y[slot] = 1 - c;
	} else {
		const y = Math.exp(-a);
		Y[slot] = y;
		C[slot] = 1 - y;
	}
}

/**
 * Each chain one octave up (x doubled): 1 - e^{-2a} = (1 - e^{-a})·(1 + e^{-a}) while 2a < 0.7 (e^{-2a} as 1 minus
 * it), e^{-2a} = (e^{-a})² above. A squared value doubles its relative error, but that is the rounding of a, which
 * doubles too: e^{-a} enters the squares at a ≥ 0.7 within about an ulp, so its relative error stays below
 * 3 ulp·a/0.7 (see the header).
 */
function chainsUp(at: number, n: number): void {
	const A = chainA;
	const Y = chainY;
	const C = chainC;
	for (let slot = at; slot < at + n; slot++) {
		const a = 2 * A[slot]!;
		const y0 = Y[slot]!;
		A[slot] = a;
		if (a < SMALL_A) {
			const c = C[slot]! * (1 + y0);
			C[slot] = c;
			Y[slot] = 1 - c;
		} else {
			const y = y0 * y0;
			Y[slot] = y;
			C[slot] = 1 - y;
		}
	}
}

/**
 * Each chain one octave down (x halved): e^{-a/2} = √(e^{-a}) (its relative error halves), and
 * 1 - e^{-a/2} = (1 - e^{-a})/(1 + e^{-a/2}) while a/2 is small; a fresh exponential where e^{-a} had underflowed.
 */
function chainsDown(at: number, n: number): void {
	const A = chainA;
	const Y = chainY;
	const C = chainC;
	for (let slot = at; slot < at + n; slot++) {
		const a = 0.5 * A[slot]!;
		const y0 = Y[slot]!;
		if (y0 < CHAIN_FLOOR) {
			setFresh(A, Y, C, slot, a);
			continue;
		}
		const y = Math.sqrt(y0);
		A[slot] = a;
		Y[slot] = y;
		C[slot] = a < SMALL_A ? C[slot]! / (1 + y) : 1 - y;
	}
}
