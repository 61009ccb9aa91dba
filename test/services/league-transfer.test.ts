import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { readCsv } from '../../src/formats/csv.js';
import { escapeForDiscord as esc } from '../../src/formats/discord-escape.js';
import { applyParamText } from '../../src/formats/param-text.js';
import { importZakstunts } from '../../src/formats/import-zakstunts.js';
import { replayHistory } from '../../src/league/replay.js';
import { getSystem, raceSystems } from '../../src/ratings/index.js';
import type { Actor } from '../../src/services/actor.js';
import { appendEvent } from '../../src/storage/event-log.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { addRace, eventCount, member, organizer, world, type World } from './helpers.js';
import { leagueParamArgs, leagueParams } from '../support/league-params.js';

/** /league import and /league export through the services. */

const zakText = readFileSync(new URL('../fixtures/zakstunts/zakstunts-race-positions.csv', import.meta.url), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'pitwall-transfer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function league(w: World, name: string, extra: { reset?: 'yearly' } = {}) {
	const info = await w.services.leagues.create(organizer, { name });
	if (extra.reset) await w.services.leagues.configure(organizer, name, { reset: 'yearly' });
	return info;
}

const importText = (w: World, name: string, text: string, file = 'history.csv', actor: Actor = organizer) =>
	w.services.transfer.importFile(actor, { league: name, file: { name: file, text } });

/** Every system's standings of a league as the export writes them, keyed by system then player name. */
async function standingsOf(w: World, name: string) {
	const x = await w.services.transfer.exportFiles(organizer, name);
	const [header, ...rows] = readCsv(x.standings).map((r) => r.fields);
	expect(header).toEqual([
		'system',
		'rank',
		'player',
		'rating',
		'uncertainty',
		'races',
		'provisional',
		'last_race',
		'rating_raw',
		'uncertainty_raw',
	]);
	return { x, rows: rows.map((r) => r.join(',')).sort() };
}

describe('league import', () => {
	it('imports ZakStunts into a new league as one event, rated exactly as the CLI importer and a replay rate it', async () => {
		const w = world();
		const info = await league(w, 'Zak');
		const heard: [number, number][] = [];
		const summary = await w.services.transfer.importFile(
			organizer,
			{ league: 'Zak', file: { name: 'zakstunts-race-positions.csv', text: zakText } },
			(done, total) => heard.push([done, total]),
		);
		const expected = importZakstunts(zakText);
		const names = new Set(expected.races.flatMap((r) => r.entries.map((e) => e.player)));
		expect(summary).toMatchObject({
			format: 'zakstunts',
			races: expected.races.length,
			players: names.size,
			entries: expected.races.reduce((n, r) => n + r.entries.length, 0),
			firstDate: undefined,
			undated: expected.races.length,
			warnings: expected.notes,
		});
		expect(await eventCount(w, info.id)).toBe(2);
		expect(heard[0]).toEqual([0, expected.races.length]);
		expect(heard.at(-1)).toEqual([expected.races.length, expected.races.length]);
		const state = await w.repo.loadState(info.id);
		expect(state.race('R1')).toMatchObject({ name: expected.races[0]!.id, status: 'confirmed' });
		for (const id of ['glicko', 'folyami']) {
			const system = getSystem(id);
			const full = replayHistory(system, leagueParams(system), expected.races);
			const view = await w.repo.ratingsAt(info.id, id);
			const byName = Object.fromEntries(view.standings.map((s) => [s.name, s.rating]));
			for (const row of full.standings()) expect(byName[row.player]).toBe(row.rating);
		}
	});

	it('a bad row: its line and what is wrong, nothing stored', async () => {
		const w = world();
		const info = await league(w, 'Main');
		const bad = 'race,date,player,position\nR1,2024-01-01,Ann,1\nR1,2024-01-01,Bob,2\nR2,2024-01-02,Ann,first\n';
		await expect(importText(w, 'Main', bad, 'main.csv')).rejects.toThrow(
			`Nothing was imported: ${esc('main.csv:4: position must be an integer of at least 1, got "first"')}`,
		);
		const zakBad = 'Track,Racer,Rank,Ghost,Status\nC1,Ann,1,0,\nC1,Bob,x,0,\n';
		await expect(importText(w, 'Main', zakBad, 'zak.csv')).rejects.toThrow(
			`Nothing was imported: ${esc('zak.csv:3: expected a track, a racer and a rank ≥ 1')}`,
		);
		// A name that looks like a player id: the file reader refuses it with its line.
		const idName = 'race,player,position\nMonza,Ann,1\nMonza,#7,2\n';
		await expect(importText(w, 'Main', idName)).rejects.toThrow(
			`Nothing was imported: ${esc('history.csv:3: the player name "#7" starts with #, as player ids do (#1): start it with another character')}`,
		);
		// A row the file reader accepts but the league refuses (a race name over 100 characters).
		const longRace = `race,player,position\n${'M'.repeat(101)},Ann,1\n`;
		await expect(importText(w, 'Main', longRace)).rejects.toThrow(
			/^Nothing was imported: race R1 .*a race name is 1 to 100 characters/,
		);
		await expect(importText(w, 'Main', 'race,player,position\n')).rejects.toThrow('history.csv has no races');
		expect(await eventCount(w, info.id)).toBe(1);
	});

	it('Ergast needs its races and drivers files; those files are refused with another format', async () => {
		const w = world();
		const info = await league(w, 'F1');
		const results = 'resultId,raceId,driverId,positionText,positionOrder,milliseconds\n1,1,1,1,1,\\N\n';
		await expect(importText(w, 'F1', results, 'results.csv')).rejects.toThrow(
			`Nothing was imported: ${esc("results.csv is Ergast's results.csv: attach races.csv and drivers.csv from the same dump too")}`,
		);
		const history = { name: 'h.csv', text: 'race,player,position\nA,Ann,1\n' };
		await expect(
			w.services.transfer.importFile(organizer, { league: 'F1', file: history, races: history }),
		).rejects.toThrow(
			`Nothing was imported: ${esc("h.csv is a history CSV: the races and drivers files and the seasons are for Ergast's results.csv only")}`,
		);
		expect(await eventCount(w, info.id)).toBe(1);
	});

	it('organizers only; into a league without races only; a yearly reset refuses undated races', async () => {
		const w = world();
		const info = await league(w, 'Main');
		const text = 'race,player,position\nR1,Ann,1\nR1,Bob,2\n';
		await expect(importText(w, 'Main', text, 'h.csv', member)).rejects.toThrow(/Only league organizers/);
		await addRace(w, '1. Ann\n2. Bob', 'Main');
		await expect(importText(w, 'Main', text)).rejects.toThrow(
			`Nothing was imported: ${esc('this league already has 1 race: import into a new league')}.`,
		);
		expect(await eventCount(w, info.id)).toBe(2);
		const yearly = await league(w, 'Yearly', { reset: 'yearly' });
		const undated = 'race,date,player,position\nA,2024-01-01,Ann,1\nB,,Ann,1\n';
		await expect(importText(w, 'Yearly', undated)).rejects.toThrow(
			`Nothing was imported: ${esc('race R2 ("B") needs a date: this league resets ratings every calendar year')}.`,
		);
		expect(await eventCount(w, yearly.id)).toBe(2);
	});

	it('keeps dates and reports the range and a back-dated race as a warning; R-numbered ids are not kept as names', async () => {
		const w = world();
		await league(w, 'Main');
		const text =
			'race,date,player,position\nR1,2024-03-01,Ann,1\nR1,2024-03-01,Bob,2\nR2,2024-02-01,Bob,1\nR2,2024-02-01,Cy,2\n';
		const summary = await importText(w, 'Main', text, 'h.csv');
		expect(summary).toMatchObject({ races: 2, players: 3, firstDate: '2024-02-01', lastDate: '2024-03-01' });
		expect(summary.warnings).toEqual([
			'h.csv:4: race "R2" is dated 2024-02-01, before the previous race "R1" (2024-03-01): rated before it, in date order',
		]);
		const state = await w.repo.loadState(summary.league.id);
		expect(state.races().map((r) => [r.id, r.name, r.date])).toEqual([
			['R1', undefined, '2024-03-01'],
			['R2', undefined, '2024-02-01'],
		]);
	});
});

describe('league export', () => {
	it('a league holding a name from the older, looser rules is refused with what to rename, not exported unreadable', async () => {
		const store = createMemoryStore();
		const w = world(store);
		const { id } = await league(w, 'Old');
		await addRace(w, '1. Ann\n2. Bob', 'Old');
		// A rename stored before names were held to the scoreboard's 32 characters: it replays, but cannot be read back.
		const long = 'A'.repeat(40);
		const seq = await eventCount(w, id);
		await appendEvent(store.namespace('events'), id, {
			type: 'player-renamed',
			player: '#1',
			name: long,
			by: organizer.userId,
			at: '2025-01-01T00:00:00.000Z',
			seq,
		});
		const reopened = world(store);
		await expect(reopened.services.transfer.exportFiles(organizer, 'Old')).rejects.toMatchObject({
			code: 'cannot-export',
			message: `Nothing was exported: ${esc(`race "R1": the player name "${long}" is 40 characters long: at most 32`)}. Rename the player with /player rename (or edit the race), then export again.`,
		});
		await reopened.services.players.rename(organizer, { league: 'Old', player: long, name: 'Ann' });
		const files = await reopened.services.transfer.exportFiles(organizer, 'Old');
		expect(files.history).toBe('race,date,player,position,time,status\nR1,2026-03-01,Ann,1,,\nR1,2026-03-01,Bob,2,,\n');
	});

	it('a players file that does not fit the history is refused, and nothing is imported', async () => {
		const w = world();
		const copy = await league(w, 'Copy');
		const history = 'race,date,player,position,time,status\nR1,2026-03-01,Ann,1,,\nR1,2026-03-01,Bob,2,,\n';
		const bad = async (players: string) =>
			w.services.transfer.importFile(organizer, {
				league: 'Copy',
				file: { name: 'h.csv', text: history },
				players: { name: 'p.csv', text: players },
			});
		await expect(bad('player,kind,value\nZed,alias,Z\n')).rejects.toThrow(
			`Nothing was imported: ${esc('players file: "Zed" races in none of the imported races')}.`,
		);
		await expect(bad('player,alias\nAnn,A\n')).rejects.toThrow(
			`Nothing was imported: ${esc('p.csv:1: expected the header player,kind,value (a players.csv of /league export)')}`,
		);
		await expect(bad('player,kind,value\nAnn,alias,Bob\n')).rejects.toThrow(
			`Nothing was imported: ${esc('players file: "Bob" already names Bob')}.`,
		);
		await expect(bad('player,kind,value\nAnn,sim_id,12\n')).rejects.toThrow(
			/^Nothing was imported: "12" is not a sim id/,
		);
		await expect(bad('player,kind,value\nAnn,nickname,A\n')).rejects.toThrow(
			`Nothing was imported: ${esc('p.csv:2: kind "nickname" is not one of alias, discord, sim_id')}`,
		);
		expect(await eventCount(w, copy.id)).toBe(1);
	});

	it('export then import into a new league gives identical standings in every system (voids, edits, merges, back-dated)', async () => {
		const w = world();
		await league(w, 'Home');
		await addRace(w, '1. Ann 1:01.5\n2. Bob 1:02.25\n3. Cy', 'Home', '2026-01-10');
		await addRace(w, '1. Bob\n2. Dee\n3. Ann', 'Home', '2026-01-20');
		await addRace(w, '1. Cy\n2. Ann\n3. Eve', 'Home', '2026-01-05'); // back-dated: confirmed after a later race
		const voided = await addRace(w, '1. Eve\n2. Bob', 'Home', '2026-02-01');
		await addRace(w, '1. Dee\n2. Cy\n3. Bob', 'Home', '2026-02-10');
		await addRace(w, '1. Annie\n2. Dee', 'Home', '2026-02-12');
		await w.services.races.void(organizer, voided, 'wrong track');
		await w.services.races.edit(organizer, 'R2', '1. Dee\n2. Bob\n3. Ann', 'order fixed');
		await w.services.players.merge(organizer, { league: 'Home', from: 'Annie', into: 'Ann' });
		await w.services.players.rename(organizer, { league: 'Home', player: 'Cy', name: 'Cyrus' });

		// Annie (the merge) and Cy (the rename) are aliases now: in the players file with Ann's link and sim id.
		await w.services.players.link(organizer, { league: 'Home', player: 'Ann', user: '800000000000000009' });
		await w.services.players.simId(organizer, { league: 'Home', player: 'Bob', simId: '76561198000000002' });
		const home = await standingsOf(w, 'Home');
		expect(home.x).toMatchObject({
			races: 5,
			voidedRaces: 1,
			asOf: '2026-03-01',
			given: { aliases: 2, links: 1, simIds: 1 },
		});
		expect(home.x.players).toBe(
			'player,kind,value\nAnn,alias,Annie\nAnn,discord,800000000000000009\nBob,sim_id,steam:76561198000000002\n' +
				'Cyrus,alias,Cy\n',
		);
		expect(home.x.systems).toEqual(raceSystems.map((s) => s.id));
		expect(readCsv(home.x.voided!).map((r) => r.fields.slice(0, 3))).toEqual([
			['race', 'date', 'player'],
			['R4', '2026-02-01', 'Eve'],
			['R4', '2026-02-01', 'Bob'],
		]);
		expect(home.x.history).toContain('R2,2026-01-20,Dee,1');
		expect(home.x.history).toContain('R1,2026-01-10,Ann,1,61.5,');
		expect(home.x.history).not.toContain('Annie');

		await league(w, 'Copy');
		const summary = await w.services.transfer.importFile(organizer, {
			league: 'Copy',
			file: { name: 'home-history.csv', text: home.x.history },
			players: { name: 'home-players.csv', text: home.x.players! },
		});
		expect(summary.races).toBe(5);
		expect(summary.given).toEqual({ aliases: 2, links: 1, simIds: 1 });
		// The copy knows the players as the league did: by alias, by link, by sim id; and exports the same file.
		const copyState = await w.repo.loadState((await w.services.leagues.resolve(organizer, 'Copy')).id);
		expect(copyState.resolve('Annie')?.name).toBe('Ann');
		expect(copyState.playerByUser('800000000000000009')?.name).toBe('Ann');
		expect(copyState.playerBySimId('steam:76561198000000002')?.name).toBe('Bob');
		// The history comes in rating order (the back-dated race first), so the copy numbers its players in that order:
		// the same rows, listed by the copy's player ids.
		const lines = (text: string | undefined) => text?.split('\n').sort();
		expect(lines((await w.services.transfer.exportFiles(organizer, 'Copy')).players)).toEqual(lines(home.x.players));
		expect(summary.warnings).toEqual([]); // written in rating order: no race dated before the one above it
		const copy = await standingsOf(w, 'Copy');
		expect(copy.rows).toEqual(home.rows);
		expect(copy.rows.filter((r) => r.startsWith('glicko,'))).toHaveLength(5); // Ann, Bob, Cyrus, Dee, Eve
	});

	it('the exported history is what pitwall replay, calibrate and backtest read: replay equals the exported standings', async () => {
		const w = world();
		await league(w, 'Zak');
		await importText(w, 'Zak', zakText, 'zak.csv');
		const { x, rows } = await standingsOf(w, 'Zak');
		const input = join(dir, 'zak-history.csv');
		writeFileSync(input, x.history);
		const run = async (...argv: string[]) => {
			let out = '';
			let err = '';
			const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
			return { code, out, err };
		};
		for (const system of ['glicko', 'folyami', 'speed']) {
			const replay = await run(
				'replay',
				'--system',
				system,
				'--input',
				input,
				'--as-of',
				x.asOf,
				...leagueParamArgs(system),
			);
			expect(replay.code).toBe(0);
			const cli = readCsv(replay.out)
				.slice(1)
				.map((r) => r.fields);
			const exported = rows
				.map((r) => r.split(','))
				.filter((f) => f[0] === system)
				.sort((a, b) => Number(a[1]) - Number(b[1]))
				.map((f) => [f[2], f[8], f[9], f[5], f[6] === 'yes' ? 'true' : 'false']);
			expect(cli.map((f) => [f[0], f[3], f[4]])).toEqual(exported.map((f) => [f[0], f[3], f[4]]));
			// The CLI keys players by name, the league by id, and a tie group is summed in key order (race.ts):
			// equal to the last bits or so.
			cli.forEach((f, i) => {
				for (const k of [1, 2]) {
					const [a, b] = [Number(f[k]), Number(exported[i]![k])];
					expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(b)));
				}
			});
		}
		const backtest = await run('backtest', '--input', input, '--systems', 'glicko,folyami');
		expect(backtest.code).toBe(0);
		expect((JSON.parse(backtest.out) as { glicko: { races: number } }).glicko.races).toBeGreaterThan(0);
		const calibrate = await run('calibrate', '--input', input, '--system', 'speed', '--max-evaluations', '5');
		expect(calibrate.code).toBe(0);
		expect(applyParamText({}, calibrate.out.trimEnd().split('\n').at(-1)!)).toHaveProperty('speed');
	});
});
