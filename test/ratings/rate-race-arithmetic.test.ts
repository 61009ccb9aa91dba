/**
 * Folyami's, Glicko's and STK's rateRace sum their pairs as they go, without the per-pair objects and arrays that
 * folyamiPair, glickoPeriod and stkExchange build for explanations (those were most of what a replay allocated).
 * Both must be the same arithmetic, operation for operation: these fields (ties, newcomers, provisional and settled
 * racers, retirements, both STK modes) check every result bit for bit against the spec-shaped functions.
 */
import { describe, expect, it } from 'vitest';
import { folyamiPair, type FolyamiState } from '../../src/ratings/folyami.js';
import { glickoPeriod, glickoScoreOf, type GlickoState } from '../../src/ratings/glicko.js';
import { systems } from '../../src/ratings/index.js';
import { rankRace } from '../../src/ratings/race.js';
import { stkExchange, type StkState } from '../../src/ratings/stk.js';
import type { FieldEntry, Race, RaceMode } from '../../src/ratings/types.js';
import { mulberry32 } from '../support/mulberry32.js';

const FIELDS = 40;

/** A race of `size` with ties every few places and, where `retirements`, the last few retired. */
function randomRace(random: () => number, size: number, retirements: boolean): Race {
	let position = 1;
	return {
		id: 'R',
		entries: Array.from({ length: size }, (_, i) => {
			if (i > 0 && random() > 0.2) position = i + 1; // about one place in five ties the one before
			const retired = retirements && i >= size - 2;
			return {
				player: `P${i}`,
				position: retired ? size + 1 : position,
				status: retired ? ('DNF' as const) : ('finished' as const),
				...(!retired && { time: 60 + position * 1.5 + random() }),
			};
		}),
	};
}

function fieldOf<S>(race: Race, stateOf: (i: number) => S): FieldEntry<S>[] {
	return rankRace(race).map((entry) => ({ ...entry, state: stateOf(Number(entry.player.slice(1))) }));
}

describe('rateRace is the arithmetic of its explained parts, bit for bit', () => {
	it('folyami: rating plus the round robin of folyamiPair deltas, in field order', () => {
		const random = mulberry32(11);
		for (const k of [undefined, 20]) {
			const params = systems.folyami.params(k === undefined ? {} : { k });
			for (let n = 0; n < FIELDS; n++) {
				const race = randomRace(random, 2 + Math.floor(random() * 24), false);
				const field = fieldOf<FolyamiState>(race, () => ({
					rating: 1200 + random() * 800,
					entries: Math.floor(random() * 30), // provisional below params.provisionalRaces, settled above
				}));
				const deltas = field.map(() => 0);
				for (let i = 0; i < field.length; i++) {
					for (let j = i + 1; j < field.length; j++) {
						const pair = folyamiPair(field[i]!.state, field[i]!.rank, field[j]!.state, field[j]!.rank, params);
						deltas[i]! += pair.deltaX;
						deltas[j]! += pair.deltaY;
					}
				}
				const rated = systems.folyami.rateRace(field, params);
				field.forEach((entry, i) => expect(rated[i]!.rating).toBe(entry.state.rating + deltas[i]!));
			}
		}
	});

	it('glicko period: glickoPeriod over every opponent at pre-race values, in field order', () => {
		const random = mulberry32(12);
		const params = systems.glicko.params();
		for (let n = 0; n < FIELDS; n++) {
			const race = randomRace(random, 2 + Math.floor(random() * 24), false);
			const field = fieldOf<GlickoState>(race, () => ({
				rating: 1200 + random() * 800,
				rd: 30 + random() * 320,
				races: Math.floor(random() * 50),
			}));
			const rated = systems.glicko.rateRace(field, params);
			field.forEach((entry, i) => {
				const games = field
					.filter((other) => other !== entry)
					.map((other) => ({
						rating: other.state.rating,
						rd: other.state.rd,
						score: glickoScoreOf(entry.rank, other.rank),
					}));
				const period = glickoPeriod(entry.state.rating, entry.state.rd, games);
				expect(rated[i]!.rating).toBe(period.rating);
				expect(rated[i]!.rd).toBe(Math.min(period.rd, entry.state.rd, params.maxRd));
			});
		}
	});

	it('stk: scores after base points plus the stkExchange terms, summed in field order', () => {
		const random = mulberry32(13);
		for (const factorCombination of ['multiply', 'max'] as const) {
			const params = systems.stk.params({ factorCombination });
			for (let n = 0; n < FIELDS; n++) {
				const race = randomRace(random, 2 + Math.floor(random() * 24), random() < 0.5);
				const field = fieldOf<StkState>(race, () => {
					const score = random() * 6000;
					return { score, maxScore: score + random() * 500, races: Math.floor(random() * 600) };
				});
				const mode: RaceMode = random() < 0.5 ? 'tt' : 'items';
				const { scores, terms } = stkExchange(field, params, { mode });
				const rated = systems.stk.rateRace(field, params, { mode });
				field.forEach((_, i) => {
					let change = 0.0;
					for (const term of terms[i]!) if (term !== undefined) change += term;
					expect(rated[i]!.score).toBe(scores[i]! + change);
				});
			}
		}
	});
});
