/**
 * A make-up race (dated before races already rated) through the services and their caches: every number equals a
 * replay from scratch of the league's confirmed races sorted by date (a plain stable sort here, not rating-order.ts),
 * for glicko and endure, after the submission and after a void, a date edit and a restore of earlier races, warm
 * and in a new process over the same store.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { readCsv } from '../../src/formats/csv.js';
import { writeHistoryCsv } from '../../src/formats/history-csv.js';
import { replayHistory, type RaceOutcome } from '../../src/league/replay.js';
import { standingsAsOf } from '../../src/league/standings.js';
import { getSystem } from '../../src/ratings/index.js';
import type { Race } from '../../src/ratings/types.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { Store } from '../../src/storage/ports.js';
import { leagueParamArgs, leagueParams } from '../support/league-params.js';
import { addRace, member, organizer, world, type World } from './helpers.js';

const SYSTEMS = ['glicko', 'endure'] as const;
const PLAYERS = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve'];
/** Small snapshot and store cadences, so that the keeper restores snapshots between the races changed. */
const repoOptions = { ratingEvery: 2, stateEvery: 3 };

/** The confirmed races, sorted by date with a stable sort (confirmation order within a date). */
async function byDate(w: World, league: string): Promise<Race[]> {
	const state = await w.repo.loadState(league);
	return state
		.races()
		.filter((r) => r.status === 'confirmed')
		.map((r) => ({ id: r.id, date: r.date, entries: r.entries }))
		.sort((a, b) => (a.date! < b.date! ? -1 : a.date! > b.date! ? 1 : 0));
}

/** Every player's /rating under each system equals the reference: rating, uncertainty, last change, chart races. */
async function expectFromScratch(w: World, league: string): Promise<void> {
	const races = await byDate(w, league);
	const state = await w.repo.loadState(league);
	for (const id of SYSTEMS) {
		const system = getSystem(id);
		const params: unknown = leagueParams(system);
		const outcomes: RaceOutcome[] = [];
		replayHistory(system, params, races, {}, (o) => outcomes.push(o));
		for (const name of PLAYERS) {
			const player = state.resolve(name)!.id;
			const shown = await w.services.ratings.rating(member, { player: name, system: id, chart: true });
			const standing = standingsAsOf(system, params, races, shown.asOf).find((s) => s.player === player);
			expect(shown.summary?.rating, `${id} ${name}`).toBe(standing?.rating);
			expect(shown.summary?.uncertainty, `${id} ${name}`).toBe(standing?.uncertainty);
			const mine = outcomes.filter((o) => o.changes.some((c) => c.player === player));
			const last = mine.at(-1);
			const change = last?.changes.find((c) => c.player === player);
			expect(shown.lastChange, `${id} ${name}`).toMatchObject({
				race: last?.race.id,
				before: change?.before.rating,
				after: change?.after.rating,
			});
			const charted = shown.chart?.series[0]?.points.filter((p) => p.race !== undefined).map((p) => p.race);
			expect(charted, `${id} ${name}`).toEqual(mine.map((o) => o.race.id));
		}
	}
}

describe('a make-up race is rated in date order, and every cache follows', () => {
	it('submit, void, date edit and restore of earlier races: the same numbers as a replay by date from scratch', async () => {
		const store: Store = createMemoryStore();
		const w = world(store, { repo: repoOptions });
		const league = (await w.services.leagues.create(organizer, { name: 'Cup', headline: 'glicko' })).id;
		const day = (n: number) => `2026-01-${String(n).padStart(2, '0')}`;
		for (let k = 0; k < 8; k++) {
			const field = PLAYERS.map((_, i) => PLAYERS[(i + k) % PLAYERS.length]!).slice(0, 4 + (k % 2));
			await addRace(w, field.map((p, i) => `${i + 1}. ${p}`).join('\n'), undefined, day(3 + 3 * k));
		}
		await expectFromScratch(w, league); // warm every cache in log order = date order

		// The make-up race: dated 14 January, after R4 (the 12th) and before R5..R8 (the 15th on).
		const preview = await w.services.races.submit(organizer, { text: '1. Eve\n2. Ann\n3. Dee', date: day(14) });
		expect(preview.warnings).toContain(
			'Dated 2026-01-14, before R5–R8 already rated: their ratings will be recomputed.',
		);
		// The preview rates it on the ratings of 14 January (R1..R4), as confirming does.
		const racesBefore = (await byDate(w, league)).filter((r) => r.date! <= day(14));
		const glicko = getSystem('glicko');
		const atThen = replayHistory(glicko, leagueParams(glicko), racesBefore);
		const state = await w.repo.loadState(league);
		const eve = preview.lines.find((l) => l.name === 'Eve')!;
		expect(eve.before?.rating).toBe(
			glicko.summary(atThen.stateAt(state.resolve('Eve')!.id, day(14)), leagueParams(glicko)).rating,
		);
		expect((await w.services.races.confirm(organizer, preview.id)).race).toBe('R9');
		await expectFromScratch(w, league);

		await w.services.races.void(organizer, 'R2', 'wrong track');
		await expectFromScratch(w, league);
		const { warnings } = await w.services.races.edit(organizer, 'R7', undefined, 'the round was in early January', {
			date: day(1),
		});
		expect(warnings).toContain(
			'Dated 2026-01-01, before R1, R3–R4, R9 and R5–R6 already rated: their ratings will be recomputed.',
		);
		await expectFromScratch(w, league);
		const restored = await w.services.races.restore(organizer, 'R2', 'it was the right track');
		expect(restored.moved).toBe(
			'Dated 2026-01-06, before R3–R4, R9, R5–R6 and R8 already rated: their ratings were recomputed.',
		);
		await expectFromScratch(w, league);

		// A new process over the same store: the caches it finds there (snapshots, stored changes) agree.
		await expectFromScratch(world(store, { repo: repoOptions }), league);
	});
});

describe('the pitwall CLI rates a league with a make-up race as the bot does', () => {
	const dir = mkdtempSync(join(tmpdir(), 'pitwall-make-up-'));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	const run = async (...argv: string[]) => {
		let out = '';
		let err = '';
		const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
		return { code, out, err };
	};

	it('pitwall replay over the export, and over the history in confirmation order, equals /rating', async () => {
		const w = world();
		const league = (await w.services.leagues.create(organizer, { name: 'Cup', headline: 'endure' })).id;
		await addRace(w, '1. Ann\n2. Bob\n3. Cy', undefined, '2026-02-01');
		await addRace(w, '1. Bob\n2. Dee\n3. Ann', undefined, '2026-02-15');
		await addRace(w, '1. Cy\n2. Ann\n3. Eve', undefined, '2026-02-08'); // the make-up race
		await addRace(w, '1. Dee\n2. Eve\n3. Bob', undefined, '2026-02-22');
		await addRace(w, '1. Eve\n2. Cy', undefined, '2026-01-25'); // another, before every race
		await w.services.races.void(organizer, 'R2', 'wrong track');
		await w.services.races.edit(organizer, 'R4', undefined, 'it was run early', { date: '2026-02-05' });
		const state = await w.repo.loadState(league);
		const exported = await w.services.transfer.exportFiles(organizer, 'Cup');
		// The same races as an organizer may keep them: in the order they were confirmed, names for ids.
		const confirmed = state
			.races()
			.filter((r) => r.status === 'confirmed')
			.map((r) => ({
				id: r.id,
				date: r.date,
				entries: r.entries.map((e) => ({ ...e, player: state.resolve(e.player)!.name })),
			}));
		const files = { exported: exported.history, confirmationOrder: writeHistoryCsv(confirmed) };
		for (const [label, text] of Object.entries(files)) {
			const input = join(dir, `${label}.csv`);
			writeFileSync(input, text);
			for (const system of SYSTEMS) {
				const asOf = exported.asOf;
				const cli = await run(
					'replay',
					'--system',
					system,
					'--input',
					input,
					'--as-of',
					asOf,
					...leagueParamArgs(system),
				);
				expect(cli.code, cli.err).toBe(0);
				const rows = readCsv(cli.out)
					.slice(1)
					.map((r) => r.fields);
				expect(rows.map((f) => f[0]).sort()).toEqual([...PLAYERS].sort());
				for (const [name, rating, uncertainty] of rows) {
					const shown = await w.services.ratings.rating(member, { player: name!, system });
					expect(shown.asOf).toBe(asOf);
					expect(Number(rating), `${label} ${system} ${name}`).toBe(shown.summary?.rating);
					expect(Number(uncertainty), `${label} ${system} ${name}`).toBe(shown.summary?.uncertainty);
				}
			}
		}
	});
});
