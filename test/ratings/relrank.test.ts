import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/ratings/relrank/decimal.js';
import { parseGames, parseGamesCompat, ReferenceCrash, type Game } from '../../src/ratings/relrank/games.js';
import {
	referenceParams,
	relrank,
	relrankParams,
	RelrankError,
	stepCount,
	type RelrankResult,
	type ReferenceEnv,
} from '../../src/ratings/relrank/relrank.js';
import { ParamError } from '../../src/ratings/types.js';

const fixtures = join(import.meta.dirname, '../fixtures/relrank');
/** The Worms League files are not redistributed: read from the shared data next to the repo root. */
const wormsLeague = join(import.meta.dirname, '../../../shared/data/worms-league');
const hasWormsLeague = existsSync(wormsLeague);

interface Oracle {
	name: string;
	input: string;
	env: ReferenceEnv;
	expected: string;
	exit: { exit_code: number; stderr_first_line: string };
	intermediates?: Intermediates;
}

interface Intermediates {
	T_mn: string;
	T_mx: string;
	effort: Record<string, string>;
	farming: Record<string, string>;
	mxWonOpp: number;
	steps: number;
	total_rounds: Record<string, number>;
	won_rounds: Record<string, string>;
	per_step: {
		step: number;
		distinct_count: string;
		position_asc: Record<string, number>;
		quality: Record<string, string>;
		rel: Record<string, string>;
		rating_after: Record<string, string>;
	}[];
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

const oracles: Oracle[] = readdirSync(fixtures, { withFileTypes: true })
	.filter((entry) => entry.isDirectory())
	.map(({ name }) => {
		const dir = join(fixtures, name);
		return {
			name,
			input: readFileSync(join(dir, 'input.csv'), 'utf8'),
			env: readJson<{ env: ReferenceEnv }>(join(dir, 'env.json')).env,
			expected: readFileSync(join(dir, 'expected.csv'), 'utf8'),
			exit: readJson<Oracle['exit']>(join(dir, 'exit.json')),
			intermediates: existsSync(join(dir, 'intermediates.json'))
				? readJson<Intermediates>(join(dir, 'intermediates.json'))
				: undefined,
		};
	});

const lines = (result: RelrankResult): string =>
	result.ratings.map((r) => `${r.user},${r.rating.toString()}\n`).join('');
const strings = <T>(
	map: ReadonlyMap<number, T>,
	show: (value: T) => string | number,
): Record<string, string | number> => Object.fromEntries([...map].map(([id, value]) => [String(id), show(value)]));
const str = (x: Decimal): string => x.toString();

describe('relrank against the Go reference (oracles/relrank)', () => {
	it('has the oracle cases', () => {
		expect(oracles.map((o) => o.name)).toEqual(
			expect.arrayContaining(['01_readme', '05_uneven12', '11_error_mxwonopp1']),
		);
	});

	for (const oracle of oracles.filter((o) => o.exit.exit_code === 0)) {
		it(`${oracle.name}: output byte-identical (sorted by user id), --compat reading`, () => {
			const result = relrank(parseGamesCompat(oracle.input), referenceParams(oracle.env), { compat: true });
			expect(lines(result)).toBe(oracle.expected);
		});

		const inter = oracle.intermediates;
		if (inter === undefined) continue;
		it(`${oracle.name}: every intermediate equals the reference's`, () => {
			const { trace } = relrank(parseGamesCompat(oracle.input), referenceParams(oracle.env), {
				compat: true,
				trace: true,
			});
			expect(trace).toBeDefined();
			if (!trace) return;
			expect(trace.steps).toBe(inter.steps);
			expect(trace.mxWonOpp).toBe(inter.mxWonOpp);
			expect(String(trace.tMin)).toBe(inter.T_mn);
			expect(String(trace.tMax)).toBe(inter.T_mx);
			expect(strings(trace.totalRounds, (x) => x)).toEqual(inter.total_rounds);
			expect(strings(trace.wonRounds, String)).toEqual(inter.won_rounds);
			expect(strings(trace.farming, str)).toEqual(inter.farming);
			expect(strings(trace.effort, str)).toEqual(inter.effort);
			expect(trace.perStep).toHaveLength(inter.per_step.length);
			trace.perStep.forEach((step, i) => {
				const want = inter.per_step[i]!;
				expect(step.step).toBe(want.step);
				expect(String(step.distinctCount)).toBe(want.distinct_count);
				expect(strings(step.positionAsc, (x) => x)).toEqual(want.position_asc);
				expect(strings(step.quality, str)).toEqual(want.quality);
				expect(strings(step.rel, str)).toEqual(want.rel);
				expect(strings(step.ratingAfter, str)).toEqual(want.rating_after);
			});
		});
	}

	it('11_error_mxwonopp1: --compat reproduces the crash (exit 2, panic: decimal division by 0)', () => {
		const oracle = oracles.find((o) => o.name === '11_error_mxwonopp1')!;
		let crash: unknown;
		try {
			relrank(parseGamesCompat(oracle.input), referenceParams(oracle.env), { compat: true });
		} catch (error) {
			crash = error;
		}
		expect(crash).toBeInstanceOf(ReferenceCrash);
		expect((crash as ReferenceCrash).exitCode).toBe(oracle.exit.exit_code);
		expect((crash as ReferenceCrash).stderrLine).toBe(oracle.exit.stderr_first_line);
	});

	it('11_error_mxwonopp1: by default, a clear error that nobody won twice against one opponent', () => {
		const oracle = oracles.find((o) => o.name === '11_error_mxwonopp1')!;
		expect(() => relrank(parseGames(oracle.input), relrankParams())).toThrow(RelrankError);
		expect(() => relrank(parseGames(oracle.input), relrankParams())).toThrow(
			/won more than one round against the same opponent/,
		);
	});

	it('02: the default reading keeps the last line without newline, so it equals the full README example (01)', () => {
		const o1 = oracles.find((o) => o.name === '01_readme')!;
		const o2 = oracles.find((o) => o.name === '02_readme_no_trailing_newline')!;
		expect(lines(relrank(parseGames(o2.input), relrankParams()))).toBe(o1.expected);
		expect(lines(relrank(parseGamesCompat(o2.input), referenceParams({}), { compat: true }))).toBe(o2.expected);
	});

	it('the default reading gives the reference output on every well-formed case', () => {
		for (const oracle of oracles.filter((o) => o.exit.exit_code === 0 && o.name !== '02_readme_no_trailing_newline')) {
			expect(lines(relrank(parseGames(oracle.input), relrankParams()))).toBe(oracle.expected);
		}
	});
});

describe('relrank invariants', () => {
	const readme: Game[] = [
		{ a: 1, b: 2, roundsA: 3, roundsB: 0 },
		{ a: 2, b: 1, roundsA: 3, roundsB: 2 },
		{ a: 3, b: 1, roundsA: 2, roundsB: 1 },
	];
	const random = fc
		.array(
			fc.record({
				a: fc.integer({ min: 1, max: 8 }),
				b: fc.integer({ min: 1, max: 8 }),
				roundsA: fc.nat(4),
				roundsB: fc.nat(4),
			}),
			{ minLength: 1, maxLength: 25 },
		)
		.map((games) => games.filter((g) => g.a !== g.b))
		.filter((games) => {
			try {
				relrank(games, relrankParams());
				return true;
			} catch (error) {
				if (error instanceof RelrankError) return false;
				throw error;
			}
		});

	it('relabelling the user ids does not change anyone’s rating', () => {
		fc.assert(
			fc.property(random, fc.integer({ min: 1, max: 1000 }), (games, offset) => {
				const base = relrank(games, relrankParams());
				const relabelled = relrank(
					games.map((g) => ({ ...g, a: 1000 * g.a + offset, b: 1000 * g.b + offset })),
					relrankParams(),
				);
				expect(relabelled.ratings.map((r) => r.rating.toString())).toEqual(
					base.ratings.map((r) => r.rating.toString()),
				);
			}),
			{ numRuns: 40 },
		);
	});

	it('only sums of rounds matter: game order, orientation and splitting games into rounds change nothing', () => {
		fc.assert(
			fc.property(random, (games) => {
				const base = lines(relrank(games, relrankParams()));
				const flipped = games.map((g) => ({ a: g.b, b: g.a, roundsA: g.roundsB, roundsB: g.roundsA })).reverse();
				const split = games.flatMap((g) => [
					...Array.from({ length: g.roundsA }, () => ({ a: g.a, b: g.b, roundsA: 1, roundsB: 0 })),
					...Array.from({ length: g.roundsB }, () => ({ a: g.b, b: g.a, roundsA: 1, roundsB: 0 })),
					{ ...g, roundsA: 0, roundsB: 0 },
				]);
				expect(lines(relrank(flipped, relrankParams()))).toBe(base);
				expect(lines(relrank(split, relrankParams()))).toBe(base);
			}),
			{ numRuns: 40 },
		);
	});

	it('a player without wins rates 0; with wins, ratings are positive', () => {
		fc.assert(
			fc.property(random, (games) => {
				const wins = new Map<number, number>();
				for (const g of games) {
					wins.set(g.a, (wins.get(g.a) ?? 0) + g.roundsA);
					wins.set(g.b, (wins.get(g.b) ?? 0) + g.roundsB);
				}
				for (const { user, rating } of relrank(games, relrankParams()).ratings) {
					expect(rating.sign()).toBe(wins.get(user)! > 0 ? 1 : 0);
				}
			}),
			{ numRuns: 40 },
		);
	});

	it('10_symmetric_ties: symmetric players keep equal ratings', () => {
		const oracle = oracles.find((o) => o.name === '10_symmetric_ties')!;
		const result = relrank(parseGames(oracle.input), relrankParams());
		const [r1, r2, r3] = [1, 2, 3].map((u) => result.ratings.find((r) => r.user === u)!.rating.toString());
		expect(r1).toBe(r2);
		expect(r2).toBe(r3);
	});

	it('scale-max makes the top rating exactly M and keeps ratios (proportional, not min-max)', () => {
		const scaled = relrank(readme, relrankParams({ scaleMax: '100' }));
		const plain = relrank(readme, relrankParams());
		// R·100/top of the README outputs, computed with Python's decimal module at 200 digits, ROUND_HALF_UP at 20
		expect(scaled.ratings.map((r) => r.rating.toString())).toEqual([
			'100',
			'57.44259765515506251647',
			'41.06344395693624581857',
		]);
		const ratio = plain.ratings[1]!.rating.mul(Decimal.fromInt(100)).div(plain.ratings[0]!.rating, 20);
		expect(scaled.ratings[1]!.rating.toString()).toBe(ratio.toString());
	});

	it('round rounds half away from zero after scaling', () => {
		const result = relrank(readme, relrankParams({ round: '2' }));
		expect(result.ratings.map((r) => r.rating.toString())).toEqual(['94.47', '54.27', '38.79']);
	});

	it('steps follow S = clamp(round(-1 + log10(mx·0.13)·relSteps), 1, 21)', () => {
		expect(stepCount(11, 20)).toBe(2); // the README example: -1 + log10(1.43)·20 = 2.107
		expect(stepCount(1, 20)).toBe(1); // negative before the clamp
		expect(stepCount(10_000, 20)).toBe(21);
		expect(stepCount(26, 20)).toBe(10); // 03_small4: log10(3.38)·20 − 1 = 9.58
	});

	it('default mode refuses what the reference crashes on or silently mishandles', () => {
		expect(() => relrank([], relrankParams())).toThrow(RelrankError);
		expect(() => relrank([{ a: 1, b: 2, roundsA: 0, roundsB: 0 }], relrankParams())).toThrow(/every game is 0-0/);
		expect(() => relrank([{ a: 1, b: 1, roundsA: 2, roundsB: 0 }], relrankParams())).toThrow(/against itself/);
		expect(() => relrank([{ a: 1, b: 2, roundsA: -2, roundsB: 0 }], relrankParams())).toThrow(/negative/);
	});

	it('user id 0: rated normally by default; --compat reproduces the reference’s fatal "user with rating … not found"', () => {
		const zero = readme.map((g) => ({ ...g, a: g.a - 1, b: g.b - 1 }));
		expect(lines(relrank(zero, relrankParams()))).toBe(
			lines(relrank(readme, relrankParams())).replace(/^(\d)/gm, (id) => String(Number(id) - 1)),
		);
		try {
			relrank(zero, referenceParams({}), { compat: true });
			expect.unreachable();
		} catch (error) {
			expect(error).toBeInstanceOf(ReferenceCrash);
			expect((error as ReferenceCrash).exitCode).toBe(1);
			expect((error as ReferenceCrash).stderrLine).toBe('user with rating 6 not found');
		}
	});

	it('parameters: defaults and validation', () => {
		const p = relrankParams();
		expect([p.prec, p.relSteps, p.relRel.toString(), p.scaleMax, p.round]).toEqual([
			20,
			20,
			'15.1',
			undefined,
			undefined,
		]);
		expect(() => relrankParams({ prec: '1.5' })).toThrow(ParamError);
		expect(() => relrankParams({ relRel: 'abc' })).toThrow(ParamError);
		expect(() => relrankParams({ scaleMax: '-1' })).toThrow(ParamError);
		expect(() => relrankParams({ nope: 1 })).toThrow(ParamError);
		expect(() => referenceParams({ RELRANK_SCALE_MAX: '-1' })).toThrow(ReferenceCrash);
		expect(referenceParams({ RELRANK_PREC: '8', RELRANK_RELREL: '12.25' }).relRel.toString()).toBe('12.25');
	});
});

/**
 * Spec cases 12_wl_season39..42 and 13_wl_season42_round2: the Worms League seasons. Their expected outputs are
 * not among the oracle files, but validate.py's figures are (PROVENANCE.md of the data, reproduced with the Go
 * reference and identical to the README): with RELRANK_ROUND=2 and MINW=1, N kept users and the per-season
 * "MAE"/"RMSE" (means of consecutive residual differences) against the target rankings.
 */
describe.skipIf(!hasWormsLeague)('Worms League seasons (../shared/data/worms-league)', () => {
	const expected = {
		39: { n: 35, mae: 25.55278493305227, rmse: 36.456688788966446 },
		40: { n: 34, mae: 14.376024564718678, rmse: 20.091997886647718 },
		41: { n: 17, mae: 0.7738193555490799, rmse: 0.8859498890892478 },
		42: { n: 33, mae: 25.358800743463515, rmse: 36.73211211228584 },
	} as const;
	const read = (file: string): string => readFileSync(join(wormsLeague, file), 'utf8');
	const users = (): Map<number, string> =>
		new Map(
			read('users.csv')
				.trim()
				.split('\n')
				.map((line) => [Number(line.slice(0, line.indexOf(','))), line.slice(line.indexOf(',') + 1)]),
		);

	/** validate.py with MINW=1 (see PROVENANCE.md of the data). */
	function validate(season: number, ratings: readonly { user: number; rating: Decimal }[], games: readonly Game[]) {
		const names = users();
		const won = new Map<number, number>();
		for (const g of games) {
			won.set(g.a, (won.get(g.a) ?? 0) + g.roundsA);
			won.set(g.b, (won.get(g.b) ?? 0) + g.roundsB);
		}
		const target = new Map(
			read(`${season}ranking.csv`)
				.trim()
				.split('\n')
				.slice(1)
				.map((line) => line.split(',').map(Number) as [number, number]),
		);
		const kept = ratings
			.filter((r) => (won.get(r.user) ?? 0) >= 1 && target.has(r.user))
			.map((r) => ({ x: r.rating.toNumber(), t: target.get(r.user)!, name: names.get(r.user) ?? '' }));
		const [a, b] = [Math.min(...kept.map((k) => k.t)), Math.max(...kept.map((k) => k.t))];
		const [mn, mx] = [Math.min(...kept.map((k) => k.x)), Math.max(...kept.map((k) => k.x))];
		kept.sort((p, q) => q.x - p.x || q.t - p.t || (q.name < p.name ? -1 : q.name > p.name ? 1 : 0));
		const d = kept.map((k) => a + ((k.x - mn) * (b - a)) / (mx - mn) - k.t);
		let abs = 0;
		let sq = 0;
		for (let i = 1; i < d.length; i++) {
			abs += Math.abs(d[i - 1]! - d[i]!);
			sq += (d[i - 1]! - d[i]!) ** 2;
		}
		return { n: kept.length, mae: abs / d.length, rmse: Math.sqrt(sq / d.length) };
	}

	for (const season of [39, 40, 41, 42] as const) {
		it(`12_wl_season${season}: RELRANK_ROUND=2 reproduces validate.py's MAE/RMSE against the target ranking`, () => {
			const text = read(`${season}games.csv`);
			const games = parseGamesCompat(text);
			expect(parseGames(text)).toEqual(games); // the header is the only line the two readings treat differently
			const result = relrank(games, referenceParams({ RELRANK_ROUND: '2' }), { compat: true });
			const got = validate(season, result.ratings, games);
			expect(got.n).toBe(expected[season].n);
			expect(got.mae).toBeCloseTo(expected[season].mae, 9);
			expect(Math.abs(got.mae / expected[season].mae - 1)).toBeLessThan(1e-9);
			expect(Math.abs(got.rmse / expected[season].rmse - 1)).toBeLessThan(1e-9);
		});
	}

	it('12_wl: full-precision outputs have up to 420 decimals (21 steps × prec 20), and rounding them gives case 13', () => {
		const games = parseGamesCompat(read('42games.csv'));
		const full = relrank(games, referenceParams({}), { compat: true });
		const rounded = relrank(games, referenceParams({ RELRANK_ROUND: '2' }), { compat: true });
		expect(full.steps).toBe(21);
		expect(Math.max(...full.ratings.map((r) => r.rating.toString().split('.')[1]?.length ?? 0))).toBe(420);
		expect(rounded.ratings.map((r) => r.rating.toString())).toEqual(
			full.ratings.map((r) => r.rating.round(2).toString()),
		);
	});

	it('season 40: 46 players rated, one more than the 45 in the target ranking', () => {
		expect(relrank(parseGames(read('40games.csv')), relrankParams()).ratings).toHaveLength(46);
	});
});

if (!hasWormsLeague) {
	describe('Worms League seasons', () => {
		it.skip(`skipped: ${wormsLeague} is absent (the data carry no redistribution licence and are not in the repo)`, () => {});
	});
}
