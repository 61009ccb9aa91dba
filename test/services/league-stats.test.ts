import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { datedSample } from '../support/league-history.js';
import { main } from '../../src/cli/main.js';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { raceSystems } from '../../src/ratings/index.js';
import { bestPredictor, rankSystems, type SystemStats } from '../../src/services/calibration/league-stats-service.js';
import { reliabilityChartOf } from '../../src/services/calibration/stats-chart-data.js';
import { addRace, member, organizer, world, type World } from './helpers.js';
import { leagueParamArgs } from '../support/league-params.js';

/** /league stats scores the league's own history exactly as `pitwall backtest` scores it as a CSV. */

const sampleText = readFileSync(new URL('../../data/sample-league.csv', import.meta.url), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'pitwall-stats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ids = raceSystems.map((s) => s.id);

/** `pitwall backtest` over a CSV text, every race system, with these extra arguments; its JSON report. */
async function cliBacktest(text: string, name: string, ...extra: string[]) {
	const path = join(dir, name);
	writeFileSync(path, text);
	let out = '';
	const code = await main(['backtest', '--input', path, '--systems', ids.join(','), ...extra], {
		out: (t) => (out += t),
		err: () => undefined,
	});
	expect(code).toBe(0);
	return JSON.parse(out) as Record<string, unknown>;
}

async function importedLeague(w: World, name: string, text: string) {
	await w.services.leagues.create(organizer, { name });
	await w.services.transfer.importFile(organizer, { league: name, file: { name: `${name}.csv`, text } });
}

const byId = (systems: readonly SystemStats[]) => Object.fromEntries(systems.map((s) => [s.system, s.backtest]));

/**
 * The same numbers up to the order of sums: a field's tied racers are in player order (ratings/race.ts), by name in
 * a CSV and by player id in a league, and a sum in another order may differ in its last bit. Counts are exact.
 */
function expectSameNumbers(actual: unknown, expected: unknown, path = ''): void {
	if (typeof expected === 'number' && typeof actual === 'number') {
		if (Number.isInteger(expected)) expect(actual, path).toBe(expected);
		else expect(Math.abs(actual - expected), path).toBeLessThanOrEqual(1e-12 * Math.abs(expected));
	} else if (typeof expected === 'object' && expected !== null) {
		expect(typeof actual, path).toBe('object');
		expect(Object.keys(actual as object).sort(), path).toEqual(Object.keys(expected).sort());
		for (const [key, value] of Object.entries(expected)) {
			expectSameNumbers((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
		}
	} else expect(actual, path).toEqual(expected);
}

describe('league stats service', () => {
	it('on the ZakStunts sample league, with the league’s parameters, gives the CLI backtest’s numbers', async () => {
		const w = world();
		await importedLeague(w, 'Zak', sampleText);
		await w.services.leagues.configure(organizer, 'Zak', { parameters: 'glicko.initialRd=200 endure.k=0.5' });
		const stats = await w.services.stats.stats(member, { league: 'Zak' });
		const cli = await cliBacktest(
			sampleText,
			'zak.csv',
			...leagueParamArgs(...ids),
			'--param',
			'glicko.initialRd=200',
			'--param',
			'endure.k=0.5',
		);
		expectSameNumbers(byId(stats.systems), cli);
		const races = parseHistoryCsv(sampleText, 'sample-league.csv');
		expect(stats.races).toBe(races.length);
		for (const s of stats.systems) {
			// every (racer, race) pair of a scored race in one bin; one win per scored race over the bins
			const rated = races.reduce(
				(n, r) => n + r.entries.filter((e) => e.status !== 'DNS' && e.status !== 'DSQ').length,
				0,
			);
			expect(s.stats.races).toBe(s.backtest.races);
			expect(s.stats.reliability.reduce((n, b) => n + b.count, 0)).toBe(s.backtest.races === 0 ? 0 : rated);
			expect(s.stats.reliability.reduce((n, b) => n + b.wins, 0)).toBeCloseTo(s.backtest.races, 9);
			if (s.system !== 'stk') expect(s.stats.winnersPickedShare).toBeGreaterThan(0.2); // stk rates no race here
		}
		// the parameters matter: at the defaults the numbers differ from the configured league's
		const defaults = await cliBacktest(sampleText, 'zak-defaults.csv');
		for (const id of ['glicko', 'endure']) {
			const ll = (defaults[id] as { winner_log_likelihood: number }).winner_log_likelihood;
			expect(Math.abs(ll - byId(stats.systems)[id]!.winner_log_likelihood)).toBeGreaterThan(1);
		}
	});

	it('with a yearly reset configured, gives the CLI backtest’s numbers with --reset yearly', async () => {
		const w = world();
		const text = datedSample(40);
		await importedLeague(w, 'Dated', text);
		await w.services.leagues.configure(organizer, 'Dated', { reset: 'yearly' });
		const stats = await w.services.stats.stats(member, { league: 'Dated' });
		expectSameNumbers(
			byId(stats.systems),
			await cliBacktest(text, 'dated.csv', '--reset', 'yearly', ...leagueParamArgs(...ids)),
		);
		const carried = (await cliBacktest(text, 'dated-carried.csv', ...leagueParamArgs(...ids))).endure as {
			winner_log_likelihood: number;
		};
		expect(Math.abs(carried.winner_log_likelihood - byId(stats.systems).endure!.winner_log_likelihood)).toBeGreaterThan(
			1,
		);
	});

	it('names the best predictor by winner log-likelihood and how far ahead it is', async () => {
		const w = world();
		await importedLeague(w, 'Zak', sampleText);
		const stats = await w.services.stats.stats(member, {});
		// stk rates no race of ZakStunts (no finish times): it scores none and is not compared
		const scored = stats.systems
			.filter((s) => s.backtest.races === 293)
			.sort((a, b) => b.backtest.winner_log_likelihood - a.backtest.winner_log_likelihood);
		expect(scored.map((s) => s.system).sort()).toEqual(['endure', 'folyami', 'glicko', 'speed']);
		const ll = scored.map((s) => s.backtest.winner_log_likelihood).sort((a, b) => b - a);
		const best = stats.systems.find((s) => s.system === stats.best!.system)!;
		expect(best.backtest.winner_log_likelihood).toBe(ll[0]);
		expect(stats.best!.next!.margin).toBe(ll[0]! - ll[1]!);
		expect(stats.best!.next!.margin).toBeGreaterThan(0);
		// the chart: the three best, best first, each decile that holds predictions as one point
		const chart = reliabilityChartOf(stats)!;
		expect(chart).toMatchObject({ league: 'Zak', system: 'calibration', asOf: '293 races' });
		expect(chart.series.map((s) => s.system)).toEqual(scored.map((s) => s.system).slice(0, 3));
		expect(chart.series[0]!.system).toBe(stats.best!.system);
		for (const series of chart.series) {
			const bins = stats.systems.find((s) => s.system === series.system)!.stats.reliability.filter((b) => b.count > 0);
			expect(series.points).toEqual(
				bins.map((b) => ({
					predicted: b.meanPredicted,
					observed: b.observed,
					count: b.count,
					standardError: b.standardError,
				})),
			);
		}
	});

	it('keeps its answer until the log moves on', async () => {
		const w = world();
		await w.services.leagues.create(organizer, { name: 'Small' });
		for (let i = 0; i < 5; i++) await addRace(w, 'Ann\nBob\nCid', 'Small');
		const first = await w.services.stats.stats(member, {});
		expect((await w.services.stats.stats(member, {})).systems).toBe(first.systems);
		await addRace(w, 'Bob\nAnn\nCid', 'Small');
		const second = await w.services.stats.stats(member, {});
		expect(second.systems).not.toBe(first.systems);
		expect(second.races).toBe(6);
		expect(second.systems.map((s) => s.backtest.races + s.backtest.skipped)).toEqual(raceSystems.map(() => 6));
	});

	it('refuses a league with fewer than 5 rated races, saying how many it has', async () => {
		const w = world();
		await w.services.leagues.create(organizer, { name: 'New' });
		await expect(w.services.stats.stats(member, {})).rejects.toThrow(
			'No race has been rated in this league yet: the prediction stats need at least 5.',
		);
		for (let i = 0; i < 4; i++) await addRace(w, 'Ann\nBob', 'New');
		await expect(w.services.stats.stats(member, {})).rejects.toThrow(
			'Only 4 races have been rated in this league yet: the prediction stats need at least 5.',
		);
	});

	it('bestPredictor compares only the systems that scored the most races', () => {
		const s = (system: string, races: number, ll: number) =>
			({ system, backtest: { races, winner_log_likelihood: ll } }) as unknown as SystemStats;
		expect(bestPredictor([s('a', 10, -9), s('b', 8, -1), s('c', 10, -7)])).toEqual({
			system: 'c',
			next: { system: 'a', margin: 2 },
		});
		expect(bestPredictor([s('a', 10, -9)])).toEqual({ system: 'a', next: undefined });
		// a runner-up that scored fewer races is not compared (stk rates only F1's fully timed races)
		expect(bestPredictor([s('stk', 19, -53), s('a', 10, -9)])).toEqual({ system: 'stk', next: undefined });
		expect(bestPredictor([s('a', 873, -1900), s('stk', 19, -53)])).toEqual({ system: 'a', next: undefined });
		const order = rankSystems([s('a', 10, -9), s('b', 8, -1), s('c', 10, -7), s('d', 0, 0), s('e', 8, -3)]);
		expect(order.map((x) => x.system)).toEqual(['c', 'a', 'b', 'e', 'd']);
		expect(bestPredictor([s('a', 0, 0)])).toBeUndefined();
	});
});
