import type { RacePrediction } from './backtest.js';

/**
 * What `/league stats` shows of a backtest beyond its log-likelihood and Brier score: how often the
 * system's favourite won, and a reliability table of every (racer, race) prediction by decile of P(win).
 *
 * Winners picked: the favourite is the racer with the highest P(win). When k racers share that highest P exactly
 * (e.g. a field of newcomers) and j of them won, the race counts j/k: a fair pick among the tied favourites. A tie for
 * first (several actual winners) counts as picked when the favourite is among them, as the backtest treats the tied
 * winners as one outcome.
 *
 * Reliability: each racer's P(win) falls in bin k = 0…9 when k/10 ≤ P < (k+1)/10 (P = 1 in bin 9), comparing the
 * doubles nearest k/10. Observed: 1 for the winner, 0 for the others; with a tie for first the t tied winners count
 * 1/t each (the same fair split), so the observed wins of all bins sum to the races scored. The standard error is the
 * spread the observed frequency would have if the predictions were calibrated: √(Σ P(1−P)) / n (the standard
 * deviation of a sum of independent Bernoulli(P) over n); an observed frequency 2 or 3 of them off the mean predicted
 * P is unlikely under calibration. It stays defined when a bin saw no win at all.
 */

export const RELIABILITY_BINS = 10;

export interface ReliabilityBin {
	/** The bin's range of predicted P(win): [from, to). */
	readonly from: number;
	readonly to: number;
	/** (racer, race) predictions in the bin. */
	readonly count: number;
	/** Mean predicted P(win); null for an empty bin. */
	readonly meanPredicted: number | null;
	/** Wins observed (tied winners counted 1/t each). */
	readonly wins: number;
	/** wins / count; null for an empty bin. */
	readonly observed: number | null;
	/** √(Σ P(1−P)) / count: the standard error of `observed` under calibration; null for an empty bin. */
	readonly standardError: number | null;
}

export interface PredictionStats {
	/** Races scored. */
	readonly races: number;
	/** Races whose favourite won (fractional when favourites tie). */
	readonly winnersPicked: number;
	/** winnersPicked / races; null with no race. */
	readonly winnersPickedShare: number | null;
	readonly reliability: readonly ReliabilityBin[];
}

export interface PredictionStatsAccumulator {
	add(prediction: Pick<RacePrediction, 'p' | 'won'>): void;
	result(): PredictionStats;
}

/** The bin of a probability: k with k/10 ≤ p < (k+1)/10, p = 1 (or more by rounding) in the last bin. */
export function reliabilityBin(p: number): number {
	let k = Math.min(RELIABILITY_BINS - 1, Math.max(0, Math.floor(p * RELIABILITY_BINS)));
	// p·10 rounds: settle the bin against the bounds themselves, as the documentation reads.
	if (k > 0 && p < k / RELIABILITY_BINS) k--;
	else if (k < RELIABILITY_BINS - 1 && p >= (k + 1) / RELIABILITY_BINS) k++;
	return k;
}

export function createPredictionStats(): PredictionStatsAccumulator {
	let races = 0;
	let picked = 0;
	const count = new Array<number>(RELIABILITY_BINS).fill(0);
	const sumP = new Array<number>(RELIABILITY_BINS).fill(0);
	const sumVar = new Array<number>(RELIABILITY_BINS).fill(0);
	const wins = new Array<number>(RELIABILITY_BINS).fill(0);
	return {
		add({ p, won }) {
			if (p.length === 0) return;
			races++;
			const best = Math.max(...p);
			let favourites = 0;
			let favouritesWon = 0;
			let winners = 0;
			p.forEach((pi, i) => {
				if (won[i]) winners++;
				if (pi === best) {
					favourites++;
					if (won[i]) favouritesWon++;
				}
			});
			picked += favouritesWon / favourites;
			p.forEach((pi, i) => {
				const k = reliabilityBin(pi);
				count[k]!++;
				sumP[k]! += pi;
				sumVar[k]! += pi * (1 - pi);
				if (won[i]) wins[k]! += 1 / winners;
			});
		},
		result() {
			const reliability = count.map((n, k): ReliabilityBin => {
				const empty = n === 0;
				return {
					from: k / RELIABILITY_BINS,
					to: (k + 1) / RELIABILITY_BINS,
					count: n,
					meanPredicted: empty ? null : sumP[k]! / n,
					wins: wins[k]!,
					observed: empty ? null : wins[k]! / n,
					standardError: empty ? null : Math.sqrt(sumVar[k]!) / n,
				};
			});
			return { races, winnersPicked: picked, winnersPickedShare: races === 0 ? null : picked / races, reliability };
		},
	};
}
