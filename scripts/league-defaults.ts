/**
 * Defaults for new leagues (last bullet): every race system calibrated on every history we have, then
 * candidate parameter sets scored on ALL of them, and per system the set that does well on all of them chosen:
 *
 *   npx tsx scripts/league-defaults.ts [--f1 <f1db_csv dir>]     (default ../shared/data/f1, beside the project)
 *
 * Histories: ZakStunts (test/fixtures/zakstunts, 293 races, undated), Race for Kicks (test/fixtures/r4k, 21 dated
 * time trials) and F1 1970–2021 (the Ergast dump, 873 dated races; skipped, saying why, when absent). Each is read
 * as a league reads its races by default: ratings carried (no yearly reset), retirements ranked last in order.
 *
 * The rule: a candidate's score on a history is its winner log-likelihood gain over the reference defaults PER
 * RACE (so F1's 873 races do not drown R4K's 21); the chosen set has the best total of those per-race gains over
 * the histories, among the sets that lose no more than 0.01 nats per race on ANY history (TOLERANCE_PER_RACE). Candidates are round
 * values (1, 1.5, 2, 3, 5, 7 × 10^n; half-lives in days, stored as φ = 2^(−1/t) to 6 digits) spanning the
 * histories' own calibrated optima, plus the reference defaults (so the rule can always keep them).
 *
 * Also measured: the first-races swing, the largest |rating change| of a racer in their first 3 races (the issue's
 * "Glicko swings ±360 points"), and its median, under the reference and the chosen defaults.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { backtest } from '../src/analysis/backtest.js';
import { calibrate, type CalibrationResult } from '../src/analysis/calibrate.js';
import { paramValue, type SearchDimension } from '../src/analysis/calibration-space.js';
import { readErgastDir } from '../src/cli/read-ergast-dir.js';
import { readR4kDir } from '../src/cli/read-r4k-dir.js';
import { importR4k } from '../src/formats/import-r4k.js';
import { importZakstunts } from '../src/formats/import-zakstunts.js';
import { createReplay } from '../src/league/replay.js';
import { raceSystems } from '../src/ratings/index.js';
import type { AnyRatingSystem, ParamOverrides, Race } from '../src/ratings/types.js';

interface History {
	readonly name: string;
	readonly races: readonly Race[];
}

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({
	options: { f1: { type: 'string', default: join(root, '..', 'shared', 'data', 'f1') } },
});

function loadHistories(): History[] {
	const fixtures = join(root, 'test', 'fixtures');
	const zak = readFileSync(join(fixtures, 'zakstunts', 'zakstunts-race-positions.csv'), 'utf8');
	const histories: History[] = [
		{ name: 'ZakStunts', races: importZakstunts(zak).races },
		{ name: 'R4K', races: importR4k(readR4kDir(join(fixtures, 'r4k'))).races },
	];
	try {
		histories.push({ name: 'F1', races: readErgastDir(values.f1, { from: 1970, to: 2021 }).races });
	} catch {
		console.log(`F1 skipped: ${values.f1} lacks races.csv, results.csv or drivers.csv (the Ergast f1db_csv dump).\n`);
	}
	return histories;
}

/** Round values 1, 1.5, 2, 3, 5, 7 × 10^n within [lo, hi]. */
function roundValues(lo: number, hi: number): number[] {
	const out: number[] = [];
	for (let e = Math.floor(Math.log10(lo)) - 1; e <= Math.ceil(Math.log10(hi)); e++) {
		for (const m of [1, 1.5, 2, 3, 5, 7]) {
			const v = Number((m * 10 ** e).toPrecision(2));
			if (v >= lo && v <= hi) out.push(v);
		}
	}
	return out;
}

/** The stored value of a searched quantity: itself, or φ for a half-life, to 6 digits. */
const stored = (d: SearchDimension, quantity: number): number =>
	d.scale === 'half-life' ? Number(paramValue(d, quantity).toPrecision(6)) : quantity;

/** Round candidates per dimension, spanning the reference and every calibrated optimum (halved and doubled). */
function candidates(system: AnyRatingSystem, calibrations: readonly CalibrationResult[]): ParamOverrides[] {
	const dimensions = new Map<string, SearchDimension>();
	for (const c of calibrations) for (const d of c.dimensions) dimensions.set(d.name, d);
	let sets: Record<string, number>[] = [{}];
	for (const d of dimensions.values()) {
		const optima = calibrations.filter((c) => c.bestPoint[d.name] !== undefined).map((c) => c.bestPoint[d.name]!);
		const reference = calibrations.find((c) => c.defaultPoint[d.name] !== undefined)?.defaultPoint[d.name];
		const finite = [...optima, ...(reference !== undefined && Number.isFinite(reference) ? [reference] : [])];
		const lo = Math.max(d.lo, Math.min(...finite) / 2);
		const hi = Math.min(d.hi, Math.max(...finite) * 2);
		const options = roundValues(lo, hi).map((q) => stored(d, q));
		if (d.scale === 'half-life') options.push(1); // no forgetting, the reference
		const referenceValue = Number((system.params() as Record<string, unknown>)[d.param]);
		if (!options.includes(referenceValue)) options.push(referenceValue);
		sets = sets.flatMap((set) => options.map((value) => ({ ...set, [d.param]: value })));
	}
	return sets;
}

/** The largest and the median |rating change| of a racer in their first 3 races. */
function swing(system: AnyRatingSystem, overrides: ParamOverrides, races: readonly Race[]) {
	const replay = createReplay(system, system.params(overrides));
	const changes: number[] = [];
	for (const race of races) {
		for (const change of replay.apply(race).changes) {
			if (change.before.races < 3) changes.push(Math.abs(change.after.rating - change.before.rating));
		}
	}
	changes.sort((a, b) => a - b);
	return { max: changes.at(-1) ?? 0, median: changes[Math.floor(changes.length / 2)] ?? 0 };
}

/**
 * The most a chosen set may lose on any one history, in nats per race: exp(−0.01) ≈ 0.99, the geometric-mean
 * probability given to the winner at most 1 % (relative) below the reference defaults'. Strictly no loss keeps every
 * reference default, since F1's optimum sits at Folyami's K = 18 and the histories pull endure's k apart (0.14-1.2).
 */
const TOLERANCE_PER_RACE = 0.01;

const fmt = (x: number, digits = 1) => (x < 0 ? `−${(-x).toFixed(digits)}` : x.toFixed(digits));
/** `name=value …`, with φ's half-life in days alongside (φ = 2^(−1/t)). */
const paramText = (overrides: Readonly<Record<string, unknown>>) =>
	Object.entries(overrides)
		.map(([k, v]) =>
			k === 'phi' && typeof v === 'number' && v < 1
				? `phi=${v.toPrecision(6)} (half-life ${Math.round(-1 / Math.log2(v))} d)`
				: `${k}=${typeof v === 'number' ? Number(v.toPrecision(4)) : String(v)}`,
		)
		.join(' ') || '(reference)';

const histories = loadHistories();
console.log(
	`Histories: ${histories.map((h) => `${h.name} ${h.races.length} races`).join(', ')}; carried, retirements ordered.\n`,
);
const table: string[] = [
	'| system | history | races | reference LL | own-calibrated LL (params) | chosen LL | gain / race | swing ref (max / median) | swing chosen (max / median) |',
	'| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
const chosenSets: Record<string, ParamOverrides> = {};
for (const system of raceSystems) {
	const started = performance.now();
	const calibrations = histories.map((h) => calibrate(system, h.races));
	const searched = calibrations.some((c) => c.dimensions.length > 0);
	const cache = new Map<string, number[]>();
	const score = (overrides: ParamOverrides): number[] => {
		const key = JSON.stringify(overrides);
		let lls = cache.get(key);
		if (lls === undefined) {
			lls = histories.map((h) => backtest(system, system.params(overrides), h.races).winner_log_likelihood);
			cache.set(key, lls);
		}
		return lls;
	};
	const reference = score({});
	const races = histories.map((h) => backtest(system, system.params(), h.races).races);
	let chosen: ParamOverrides = {};
	let best = 0;
	const ranked: { set: ParamOverrides; gains: number[]; total: number; allowed: boolean }[] = [];
	if (searched) {
		for (const set of candidates(system, calibrations)) {
			const lls = score(set);
			const gains = lls.map((ll, i) => (ll - reference[i]!) / Math.max(1, races[i]!));
			const total = gains.reduce((a, b) => a + b, 0);
			const allowed = gains.every((g) => g >= -TOLERANCE_PER_RACE);
			ranked.push({ set, gains, total, allowed });
			if (allowed && total > best) [best, chosen] = [total, set];
		}
	}
	ranked.sort((a, b) => b.total - a.total);
	const show = (r: (typeof ranked)[number]) =>
		`${paramText(r.set)}: ${r.gains.map((g) => fmt(g, 3)).join(' / ')} (total ${fmt(r.total, 3)})`;
	if (ranked.length > 0) {
		console.log(`${system.id}, per-race gains ${histories.map((h) => h.name).join(' / ')}:`);
		console.log(`  best of all (unconstrained): ${show(ranked[0]!)}`);
		for (const r of ranked.filter((r) => r.allowed).slice(0, 4)) console.log(`  allowed: ${show(r)}`);
	}
	// Keep only what differs from the reference (a league stores overrides).
	const ref = system.params() as Record<string, unknown>;
	chosen = Object.fromEntries(Object.entries(chosen).filter(([k, v]) => ref[k] !== v));
	chosenSets[system.id] = chosen;
	const chosenLl = score(chosen);
	histories.forEach((h, i) => {
		const c = calibrations[i]!;
		const swingRef = swing(system, {}, h.races);
		const swingChosen = swing(system, chosen, h.races);
		const own = c.dimensions.length > 0 ? `${fmt(c.bestLogLikelihood)} (${paramText(c.bestParams)})` : 'n/a';
		table.push(
			`| ${system.id} | ${h.name} | ${races[i]} | ${fmt(reference[i]!)} | ${own} | ${fmt(chosenLl[i]!)} | ${fmt(
				(chosenLl[i]! - reference[i]!) / Math.max(1, races[i]!),
				3,
			)} | ${fmt(swingRef.max)} / ${fmt(swingRef.median)} | ${fmt(swingChosen.max)} / ${fmt(swingChosen.median)} |`,
		);
	});
	console.log(
		`${system.id}: chosen ${paramText(chosen)}; total per-race gain ${fmt(best, 4)} over ${cache.size} candidate sets (${(
			(performance.now() - started) /
			1000
		).toFixed(1)} s)`,
	);
}
console.log(`\n${table.join('\n')}\n`);
console.log(`LEAGUE_DEFAULTS = ${JSON.stringify(chosenSets)}`);
