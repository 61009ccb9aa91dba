/**
 * Sequential-choice Plackett-Luce rounds, shared by endure-Elo (elimination rounds, worst first) and speed-Elo
 * (selection rounds, best first). specs/endure-elo.md; Powell, JQAS 19(3), eq. 3-4 and 46-50.
 *
 * Entries are given in PICK order: the entry picked in round 1 first. Round r picks one entry of the risk set S_r
 * (the entries not yet picked) with probability w_j / Σ_{l∈S_r} w_l. Every round uses the same (pre-race) weights.
 *
 * Ties (DEVIATION: the paper has no ties): a tie group is picked together in ONE round, each member with expected
 * count d·w_j/S_r, d the group size (Breslow's handling of ties in the Cox partial likelihood; endure's elimination
 * rounds are a Cox model with hazard λ = e^-R). The round's log-likelihood is Σ_{j∈D} log w_j − d·log S_r. With
 * groups of size 1 this is exactly the untied Plackett-Luce likelihood.
 */

export interface ChoiceStats {
	/**
	 * ∂/∂(log w_j) of −log L: Σ over the rounds j is at risk in of (expected − observed picks),
	 * d_r·w_j/S_r − 1(j ∈ D_r). Sums to zero over the field.
	 */
	readonly residual: number[];
	/** −∂²/∂(log w_j)² of log L: Σ over the same rounds of d_r·p(1−p), p = w_j/S_r (eq. 5's information). */
	readonly info: number[];
}

/** One round, indices in pick order. */
export interface ChoiceRound {
	/** Entries at risk, ascending pick-order index. */
	readonly alive: number[];
	/** The tie group picked (a single entry without ties). */
	readonly picked: number[];
	/** Probability that each alive entry is picked, in `alive` order: w_j / S_r. */
	readonly p: number[];
}

/** Group boundaries: consecutive equal keys form a tie group; no keys means no ties. Returns group start indices. */
function groupStarts(m: number, keys: readonly number[] | undefined): number[] {
	if (keys !== undefined && keys.length !== m) throw new RangeError(`${keys.length} tie keys for ${m} entries`);
	const starts: number[] = [];
	for (let j = 0; j < m; j++) if (j === 0 || keys === undefined || keys[j] !== keys[j - 1]) starts.push(j);
	return starts;
}

/**
 * Weights scaled so the largest is 1 (the rounds' probabilities are invariant under a common factor): no overflow,
 * and the first risk set (everyone) sums to at least 1.
 */
function scaledWeights(logWeights: readonly number[]): number[] {
	for (const lw of logWeights) if (!Number.isFinite(lw)) throw new RangeError(`non-finite log-weight ${lw}`);
	const top = Math.max(...logWeights);
	return logWeights.map((lw) => Math.exp(lw - top));
}

/**
 * Residual and information of every entry in O(m) (specs/endure-elo.md, "O(m) form", extended to tie groups).
 * With c_q the weight of the risk set of group q and prefix sums A_q = Σ_{t≤q} d_t/c_t, B_q = Σ_{t≤q} d_t/c_t²:
 * residual_j = w_j·A_q − 1, info_j = w_j·A_q − w_j²·B_q for j in group q. A last group of size 1 (the one entry
 * never picked without ties) is not a round: its own term w/c − 1 is exactly 0 and is left out.
 */
export function sequentialChoice(logWeights: readonly number[], tieKeys?: readonly number[]): ChoiceStats {
	const m = logWeights.length;
	const residual = new Array<number>(m).fill(0);
	const info = new Array<number>(m).fill(0);
	if (m === 0) return { residual, info };
	const w = scaledWeights(logWeights);
	const starts = groupStarts(m, tieKeys);
	const groups = starts.length;
	// Risk-set sums c_q, accumulated from the last group back (smallest terms first).
	const riskSum = new Array<number>(groups).fill(0);
	let tail = 0;
	for (let q = groups - 1; q >= 0; q--) {
		const end = q + 1 < groups ? starts[q + 1]! : m;
		for (let j = starts[q]!; j < end; j++) tail += w[j]!;
		riskSum[q] = tail;
	}
	let sumA = 0;
	let sumB = 0;
	for (let q = 0; q < groups; q++) {
		const start = starts[q]!;
		const end = q + 1 < groups ? starts[q + 1]! : m;
		const d = end - start;
		const isRound = q < groups - 1 || d > 1;
		if (isRound) {
			const c = riskSum[q]!;
			sumA += d / c;
			sumB += d / (c * c);
		}
		for (let j = start; j < end; j++) {
			const wj = w[j]!;
			residual[j] = wj * sumA - (isRound ? 1 : 0);
			// Each round's term d·p(1−p) is ≥ 0; clamp the rounding of the difference.
			info[j] = Math.max(0, wj * sumA - wj * wj * sumB);
		}
	}
	return { residual, info };
}

/** The rounds one by one, O(m²): for tests and explanations (the oracle's per-round tables). */
export function choiceRounds(logWeights: readonly number[], tieKeys?: readonly number[]): ChoiceRound[] {
	const m = logWeights.length;
	const w = scaledWeights(logWeights);
	const starts = groupStarts(m, tieKeys);
	const rounds: ChoiceRound[] = [];
	for (let q = 0; q < starts.length; q++) {
		const start = starts[q]!;
		const end = q + 1 < starts.length ? starts[q + 1]! : m;
		if (q === starts.length - 1 && end - start === 1) break;
		const alive: number[] = [];
		for (let j = start; j < m; j++) alive.push(j);
		const total = alive.reduce((sum, j) => sum + w[j]!, 0);
		const picked: number[] = [];
		for (let j = start; j < end; j++) picked.push(j);
		rounds.push({ alive, picked, p: alive.map((j) => w[j]! / total) });
	}
	return rounds;
}
