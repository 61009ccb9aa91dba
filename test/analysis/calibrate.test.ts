import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyParamText } from '../../src/formats/param-text.js';
import { main } from '../../src/cli/main.js';
import { backtest } from '../../src/analysis/backtest.js';
import {
	brentMinimize,
	calibrate,
	coordinateSearch,
	pairedGainError,
	roundParam,
	searchSpace,
	type CalibrationResult,
} from '../../src/analysis/calibrate.js';
import { paramValue, quantityOf } from '../../src/analysis/calibration-space.js';
import { endure } from '../../src/ratings/endure.js';
import { folyami } from '../../src/ratings/folyami.js';
import { glicko } from '../../src/ratings/glicko.js';
import { speed } from '../../src/ratings/speed.js';
import { stk } from '../../src/ratings/stk.js';
import { ParamError, type AnyRatingSystem, type ParamOverrides, type Race } from '../../src/ratings/types.js';
import { mulberry32 as prng } from '../support/mulberry32.js';

function normal(random: () => number): number {
	return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * A league generated from known strengths: `players` racers with R ~ N(0, spread²); each race draws `field`
 * racers and orders them by the speed-Elo model (finish time ~ Exp(rate e^R), shortest first). After each race every
 * strength takes a random-walk step N(0, drift²). Races are a week apart from 2020-01-05.
 */
function syntheticLeague(seed: number, { races = 120, players = 24, field = 10, spread = 1, drift = 0 } = {}): Race[] {
	const random = prng(seed);
	const strength = Array.from({ length: players }, () => spread * normal(random));
	const history: Race[] = [];
	for (let r = 0; r < races; r++) {
		const pool = strength.map((_, i) => i);
		for (let i = pool.length - 1; i > 0; i--) {
			const j = Math.floor(random() * (i + 1));
			[pool[i], pool[j]] = [pool[j]!, pool[i]!];
		}
		const timed = pool
			.slice(0, field)
			.map((i) => ({ i, time: -Math.log(1 - random()) / Math.exp(strength[i]!) }))
			.sort((a, b) => a.time - b.time);
		const day = new Date(Date.UTC(2020, 0, 5 + 7 * r)).toISOString().slice(0, 10);
		history.push({
			id: `R${r + 1}`,
			date: day,
			entries: timed.map(({ i }, position) => ({ player: `P${i}`, position: position + 1, status: 'finished' })),
		});
		for (let i = 0; i < players; i++) strength[i] = strength[i]! + drift * normal(random);
	}
	return history;
}

const undated = (races: readonly Race[]): Race[] => races.map(({ date: _date, ...race }) => race);

const league = undated(syntheticLeague(1));
const dated = syntheticLeague(2, { races: 100 });

describe('brentMinimize', () => {
	it('finds the minimum of a parabola to its tolerance, within its call budget', () => {
		let calls = 0;
		const result = brentMinimize(
			(x) => {
				calls++;
				return (x - 0.3) ** 2;
			},
			0,
			1,
			1e-4,
			50,
		);
		expect(Math.abs(result.x - 0.3)).toBeLessThan(1e-4);
		expect(result.calls).toBe(calls);
		expect(calls).toBeLessThanOrEqual(50);
	});

	it('finds a minimum on the boundary and never calls f more than maxCalls', () => {
		for (const maxCalls of [1, 2, 3, 7]) {
			let calls = 0;
			brentMinimize(
				(x) => {
					calls++;
					return x;
				},
				0,
				1,
				1e-6,
				maxCalls,
			);
			expect(calls).toBe(maxCalls);
		}
		expect(brentMinimize((x) => Math.exp(x), 0, 1, 1e-4, 100).x).toBeLessThan(1e-3);
	});
});

describe('coordinateSearch', () => {
	it('minimises a coupled quadratic on the unit square', () => {
		const f = (u: readonly number[]): number => {
			const a = u[0]! - 0.7;
			const b = u[1]! - 0.2;
			return a * a + b * b + 0.8 * a * b;
		};
		let calls = 0;
		const result = coordinateSearch(
			(u) => {
				calls++;
				return f(u);
			},
			[0.1, 0.9],
			() => 200 - calls,
			{ tolerances: [1e-4, 1e-4], minImprovement: 1e-12 },
		);
		expect(Math.abs(result.u[0]! - 0.7)).toBeLessThan(0.01);
		expect(Math.abs(result.u[1]! - 0.2)).toBeLessThan(0.01);
		expect(calls).toBeLessThanOrEqual(200);
	});

	it('makes no call with no budget', () => {
		let calls = 0;
		coordinateSearch(
			() => {
				calls++;
				return 0;
			},
			[0.5],
			() => 0,
		);
		expect(calls).toBe(0);
	});
});

describe('searchSpace', () => {
	it('searches forgetting only on dated histories carried across seasons', () => {
		const base = endure.params();
		const names = (context: Parameters<typeof searchSpace>[2], params = base) =>
			searchSpace('endure', params, context).dimensions.map((d) => d.name);
		expect(names({ dated: true })).toEqual(['k', 'halfLifeDays']);
		expect(names({ dated: true, reset: 'yearly' })).toEqual(['k']);
		expect(names({ dated: false })).toEqual(['k']);
		expect(names({ dated: true }, endure.params({ extended: true }))).toEqual(['kInf', 'halfLifeDays']);
		expect(searchSpace('glicko', glicko.params(), { dated: false }).dimensions.map((d) => d.name)).toEqual([
			'initialRd',
		]);
		expect(searchSpace('glicko', glicko.params(), { dated: true }).dimensions.map((d) => d.name)).toEqual([
			'initialRd',
			'c',
		]);
		// initialRd may not exceed maxRd (glicko params() rejects it): the bound follows maxRd.
		const rd = searchSpace('glicko', glicko.params({ maxRd: 600 }), { dated: false }).dimensions[0]!;
		expect(rd.hi).toBe(600);
		expect(searchSpace('stk', stk.params(), { dated: true }).dimensions).toEqual([]);
	});

	it('maps a half-life to phi = 2^(-1/t) and back', () => {
		const d = searchSpace('speed', speed.params(), { dated: true }).dimensions[1]!;
		expect(paramValue(d, 693)).toBeCloseTo(0.999, 6);
		expect(quantityOf(d, paramValue(d, 365))).toBeCloseTo(365, 9);
		expect(quantityOf(d, 1)).toBe(Infinity);
	});
});

const cases: [string, AnyRatingSystem, Race[]][] = [
	['speed', speed, league],
	['endure', endure, league],
	['folyami', folyami, league],
	['glicko (dated)', glicko, dated],
	['endure (dated, forgetting)', endure, dated],
];

describe('pairedGainError', () => {
	it('is √n times the sample standard deviation of the per-race differences', () => {
		// differences +0.5, −0.5, +0.5, −0.5: mean 0, sample variance 1/3, so √(4 · 1/3) = 1.1547
		expect(pairedGainError([-1, -1, -1, -1], [-0.5, -1.5, -0.5, -1.5])).toBeCloseTo(1.1547005, 6);
		// differences 0.1, 0.3, 0.2: mean 0.2, sample variance 0.01, so √(3 · 0.01) = 0.1732
		expect(pairedGainError([-1, -2, -3], [-0.9, -1.7, -2.8])).toBeCloseTo(0.1732051, 6);
	});

	it('is 0 for the same gain in every race, Infinity with fewer than two races or unpaired lists', () => {
		expect(pairedGainError([-1, -2, -3], [-0.9, -1.9, -2.9])).toBeCloseTo(0, 12);
		expect(pairedGainError([-1], [-0.5])).toBe(Infinity);
		expect(pairedGainError([-1, -2], [-0.5])).toBe(Infinity);
	});
});

describe('calibrate', () => {
	const results = new Map<string, CalibrationResult>();
	const run = (system: AnyRatingSystem, races: Race[], maxEvaluations?: number): CalibrationResult => {
		const key = `${system.id}/${races === dated ? 'dated' : 'undated'}/${maxEvaluations}`;
		const cached = results.get(key);
		if (cached) return cached;
		const result = calibrate(system, races, { maxEvaluations });
		results.set(key, result);
		return result;
	};

	it.each(cases)(
		'%s: never worse than the defaults, and the best overrides reproduce the best LL exactly',
		(_name, system, races) => {
			const result = run(system, races);
			const atDefaults = backtest(system, system.params(), races).winner_log_likelihood;
			expect(result.defaultLogLikelihood).toBe(atDefaults);
			expect(result.bestLogLikelihood).toBeGreaterThanOrEqual(result.defaultLogLikelihood);
			expect(result.gain).toBe(result.bestLogLikelihood - result.defaultLogLikelihood);
			// The gain's standard error is that of the per-race log P(winner) at the defaults and at the best, paired.
			const terms = (overrides: ParamOverrides) => {
				const out: number[] = [];
				backtest(system, system.params(overrides), races, {}, (r) => out.push(Math.log(r.pWinner)));
				return out;
			};
			expect(result.gainStandardError).toBe(
				result.gain === 0 ? 0 : pairedGainError(terms({}), terms(result.bestOverrides)),
			);
			const again = backtest(system, system.params(result.bestOverrides), races).winner_log_likelihood;
			expect(again).toBe(result.bestLogLikelihood);
			// The best is the best of the trace, and every searched value is printed as evaluated (4 digits).
			expect(Math.max(...result.trace.map((s) => s.logLikelihood))).toBe(result.bestLogLikelihood);
			for (const d of result.dimensions) {
				if (result.gain > 0) expect(result.bestPoint[d.name]).toBe(roundParam(result.bestPoint[d.name]!));
			}
		},
	);

	it.each(cases)('%s: respects the evaluation cap and counts every backtest in the trace', (_name, system, races) => {
		for (const cap of [1, 2, 5]) {
			const result = run(system, races, cap);
			expect(result.evaluations).toBeLessThanOrEqual(cap);
			expect(result.trace).toHaveLength(result.evaluations);
			expect(result.trace.map((s) => s.evaluation)).toEqual(result.trace.map((_, i) => i + 1));
		}
		const full = run(system, races);
		expect(full.evaluations).toBeLessThanOrEqual(60);
		// A point is never backtested twice.
		const points = full.trace.map((s) => JSON.stringify(s.point));
		expect(new Set(points).size).toBe(points.length);
	});

	it('is deterministic', () => {
		const a = calibrate(glicko, dated, { maxEvaluations: 25 });
		const b = calibrate(glicko, dated, { maxEvaluations: 25 });
		expect(b).toEqual(a);
	});

	it('finds the best speed k of a dense grid (to 0.05 nats) in far fewer backtests', () => {
		const result = run(speed, league);
		let gridBest = -Infinity;
		for (let i = 0; i <= 40; i++) {
			const k = 0.005 * Math.pow(1000, i / 40);
			gridBest = Math.max(gridBest, backtest(speed, speed.params({ k }), league).winner_log_likelihood);
		}
		expect(result.bestLogLikelihood).toBeGreaterThan(gridBest - 0.05);
		expect(result.evaluations).toBeLessThan(25);
	});

	it('calibrates a larger speed k when the generating strengths drift', () => {
		const still = calibrate(speed, undated(syntheticLeague(3, { races: 150, drift: 0 })));
		const drifting = calibrate(speed, undated(syntheticLeague(3, { races: 150, drift: 0.3 })));
		expect(drifting.bestParams.k).toBeGreaterThan(1.5 * still.bestParams.k!);
	});

	it('prefers a shorter forgetting half-life when strengths drift (endure, dated, carried)', () => {
		const drifting = calibrate(endure, syntheticLeague(4, { races: 150, drift: 0.25 }));
		expect(drifting.dimensions.map((d) => d.name)).toEqual(['k', 'halfLifeDays']);
		expect(drifting.bestPoint.halfLifeDays).toBeLessThan(36_500);
		expect(drifting.gain).toBeGreaterThan(0);
	});

	it('starts from the fixed parameters and keeps the ones it does not search', () => {
		const result = calibrate(speed, league, { fixed: { k: '1', provisionalRaces: '3' }, maxEvaluations: 8 });
		expect(result.defaultPoint).toEqual({ k: 1 });
		expect(result.trace[0]!.point).toEqual({ k: 1 });
		expect(result.bestOverrides.provisionalRaces).toBe('3');
		expect(result.defaultLogLikelihood).toBe(backtest(speed, speed.params({ k: 1 }), league).winner_log_likelihood);
	});

	it('with nothing to search (stk, or --search of nothing searchable) runs the defaults once', () => {
		const result = calibrate(stk, league);
		expect(result.evaluations).toBe(1);
		expect(result.gain).toBe(0);
		expect(result.bestOverrides).toEqual({});
		expect(() => calibrate(speed, league, { only: ['halfLifeDays'] })).toThrow(ParamError);
		expect(() => calibrate(speed, league, { maxEvaluations: 0 })).toThrow(ParamError);
		expect(() => calibrate(speed, league, { maxEvaluations: 2.5 })).toThrow(ParamError);
	});
});

describe('pitwall calibrate', () => {
	const dir = mkdtempSync(join(tmpdir(), 'pitwall-calibrate-'));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));
	const input = join(dir, 'league.csv');
	const lines = ['race,date,player,position'];
	for (const race of league) for (const e of race.entries) lines.push(`${race.id},,${e.player},${e.position}`);
	writeFileSync(input, lines.join('\n') + '\n');

	async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
		let out = '';
		let err = '';
		const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
		return { code, out, err };
	}

	it('prints LL default → best and the best parameters as the text /league config parameters: accepts', async () => {
		const { code, out, err } = await cli('calibrate', '--input', input, '--system', 'speed');
		expect(err).toBe('');
		expect(code).toBe(0);
		const expected = calibrate(speed, league);
		expect(out).toContain(`${expected.defaultLogLikelihood.toFixed(2)} → ${expected.bestLogLikelihood.toFixed(2)}`);
		const lines = out.trimEnd().split('\n');
		expect(lines.at(-2)).toBe('parameters (for /league config parameters:, or each as --param):');
		const text = lines.at(-1)!;
		expect(text).toBe(`speed.k=${expected.bestParams.k}`);
		// What the bot stores from that text reproduces the calibrated log-likelihood.
		const overrides = applyParamText({}, text);
		expect(overrides).toEqual({ speed: { k: String(expected.bestParams.k) } });
		const replayed = backtest(speed, speed.params(overrides.speed), league).winner_log_likelihood;
		expect(replayed).toBe(expected.bestLogLikelihood);
	});

	it('prints fixed --param values too, each accepted by applyParamText and by --param', async () => {
		const { code, out } = await cli(
			'calibrate',
			'--input',
			input,
			'--system',
			'glicko',
			'--param',
			'maxRd=400',
			'--max-evaluations',
			'6',
		);
		expect(code).toBe(0);
		const text = out.trimEnd().split('\n').at(-1)!;
		const overrides = applyParamText({}, text);
		expect(Object.keys(overrides)).toEqual(['glicko']);
		expect(overrides.glicko).toMatchObject({ maxRd: '400' });
		const again = await cli(
			'replay',
			'--system',
			'glicko',
			'--input',
			input,
			...text.split(' ').flatMap((p) => ['--param', p]),
		);
		expect(again.code).toBe(0);
	});

	it('--json reports the result without losing the infinite half-life of "no forgetting"', async () => {
		const datedInput = join(dir, 'dated.csv');
		const rows = ['race,date,player,position'];
		for (const race of dated)
			for (const e of race.entries) rows.push(`${race.id},${race.date},${e.player},${e.position}`);
		writeFileSync(datedInput, rows.join('\n') + '\n');
		const { code, out } = await cli(
			'calibrate',
			'--input',
			datedInput,
			'--system',
			'endure',
			'--json',
			'--max-evaluations',
			'4',
		);
		expect(code).toBe(0);
		const report = JSON.parse(out) as { evaluations: number; defaultPoint: Record<string, unknown> };
		expect(report.evaluations).toBeLessThanOrEqual(4);
		expect(report.defaultPoint).toEqual({ k: 0.36, halfLifeDays: 'Infinity' });
	});

	it('rejects a bad cap, an unknown search name and --reset on an undated history (exit 2)', async () => {
		expect((await cli('calibrate', '--input', input, '--system', 'speed', '--max-evaluations', '0')).code).toBe(2);
		expect((await cli('calibrate', '--input', input, '--system', 'speed', '--search', 'c')).code).toBe(2);
		expect((await cli('calibrate', '--input', input, '--system', 'speed', '--reset', 'yearly')).code).toBe(2);
	});
});
