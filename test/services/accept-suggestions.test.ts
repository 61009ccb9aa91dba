import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { addRace, eventCount, member, organizer, world, type World } from './helpers.js';

/** "Accept suggestions" under a race preview: flagged new names read as their suggested known player. */

let w: World;
let league: string;

beforeEach(async () => {
	w = world();
	league = (await w.services.leagues.create(organizer, { name: 'Sunday Cup', headline: 'glicko' })).id;
});

const ACC_FILE = new URL(
	'../fixtures/results/mauserrifle-simresults/assettocorsa-competizione/191003_235558_R.json',
	import.meta.url,
);

describe('Accept suggestions', () => {
	it('a paste: one suggestion or a case difference is taken, two suggestions stay and are said; Confirm stores the known players', async () => {
		await addRace(w, '1. Gábor Kovács\n2. Alecu\n3. John\n4. Jan\n5. Bob');
		const players = (await w.repo.loadState(league)).players().length;
		const preview = await w.services.races.submit(organizer, {
			text: '1. Gabor Kovacs\n2. Alcu\n3. Jon\n4. bob\n5. Dave',
		});
		expect(preview.warnings).toEqual([
			'line 1: "Gabor Kovacs" is not a known player; did you mean "Gábor Kovács"?',
			'line 2: "Alcu" is not a known player; did you mean "Alecu"?',
			'line 3: "Jon" is not a known player; did you mean "Jan" or "John"?',
			'line 4: "bob" is read as the known player "Bob" (names ignore case)',
		]);
		expect(preview.suggestions).toEqual({
			renames: [
				['Gabor Kovacs', 'Gábor Kovács'],
				['Alcu', 'Alecu'],
				['bob', 'Bob'],
			],
			kept: ['Jon: it may be Jan or John'],
		});
		expect(preview.accepted).toBeUndefined();
		// Organizers only, checked at the press; the preview stays for an organizer.
		await expect(w.services.races.acceptSuggestions(member, preview.id)).rejects.toThrow(/^Only league organizers/);

		const next = await w.services.races.acceptSuggestions(organizer, preview.id);
		expect(next.accepted).toBe(
			'Read Gabor Kovacs as Gábor Kovács, Alcu as Alecu, bob as Bob. Kept Jon: it may be Jan or John.',
		);
		expect(next.warnings).toEqual(['line 3: "Jon" is not a known player; did you mean "Jan" or "John"?']);
		expect(next.suggestions).toBeUndefined();
		expect(next.lines.map((l) => [l.name, l.isNew])).toEqual([
			['Gábor Kovács', false],
			['Alecu', false],
			['Jon', true],
			['Bob', false],
			['Dave', true],
		]);
		// The old preview is replaced.
		await expect(w.services.races.confirm(organizer, preview.id)).rejects.toThrow(/has expired or was already handled/);
		await expect(w.services.races.acceptSuggestions(organizer, next.id)).rejects.toThrow(
			'This preview has no suggested name left to accept.',
		);

		const before = await eventCount(w, league);
		const done = await w.services.races.confirm(organizer, next.id);
		expect(done).toMatchObject({ already: false, newPlayers: ['Jon', 'Dave'] });
		expect(await eventCount(w, league)).toBe(before + 1);
		const state = await w.repo.loadState(league);
		expect(state.players().length).toBe(players + 2);
		const race = state.races().at(-1)!;
		expect(race.entries.map((e) => state.resolve(e.player)?.name)).toEqual([
			'Gábor Kovács',
			'Alecu',
			'Jon',
			'Bob',
			'Dave',
		]);
		expect(state.resolve('Gabor Kovacs')).toBeUndefined();
	});

	it('a name whose suggested player is in the race already stays, and is said', async () => {
		await addRace(w, '1. Alice\n2. Bob\n3. Carol');
		const preview = await w.services.races.submit(organizer, { text: '1. Alice\n2. Alcie\n3. Crol' });
		expect(preview.suggestions).toEqual({
			renames: [['Crol', 'Carol']],
			kept: ['Alcie: Alice is in the race already'],
		});
		const next = await w.services.races.acceptSuggestions(organizer, preview.id);
		expect(next.accepted).toBe('Read Crol as Carol. Kept Alcie: Alice is in the race already.');
	});

	it('no suggestion, no offer', async () => {
		await addRace(w, '1. Alice\n2. Bob');
		const preview = await w.services.races.submit(organizer, { text: '1. Alice\n2. Zed' });
		expect(preview.suggestions).toBeUndefined();
		await expect(w.services.races.acceptSuggestions(organizer, preview.id)).rejects.toThrow(
			'This preview has no suggested name left to accept.',
		);
	});

	it("a sim's result file: the racer is renamed before the scoreboard's checks, keeping the file's notes and sim id", async () => {
		await addRace(w, '1. Andrea Meli\n2. Alberto Fori\n3. Alberta For');
		const bytes = readFileSync(ACC_FILE);
		const preview = await w.services.races.submit(organizer, { file: { name: '191003_235558_R.json', bytes } });
		expect(preview.warnings).toContain('"Andrea Mel" is not a known player; did you mean "Andrea Meli"?');
		expect(preview.suggestions).toEqual({
			renames: [['Andrea Mel', 'Andrea Meli']],
			kept: ['Alberto For: it may be Alberta For or Alberto Fori'],
		});
		const next = await w.services.races.acceptSuggestions(organizer, preview.id);
		expect(next.accepted).toBe(
			'Read Andrea Mel as Andrea Meli. Kept Alberto For: it may be Alberta For or Alberto Fori.',
		);
		expect(next.warnings.filter((x) => x.includes('known player'))).toEqual([
			'"Alberto For" is not a known player; did you mean "Alberta For" or "Alberto Fori"?',
		]);
		expect(next.source).toBe(preview.source);
		expect(next.lines.map((l) => [l.name, l.isNew, l.note])).toEqual([
			['Andrea Meli', false, 'GT3'],
			['Alberto For', true, 'DNF inferred: 21 laps · GT3'],
			['Federico Siv', true, 'DNF inferred: 21 laps · GT3'],
		]);
		const done = await w.services.races.confirm(organizer, next.id);
		expect(done).toMatchObject({ already: false, newPlayers: ['Alberto For', 'Federico Siv'] });
		// The file's sim id is claimed for the known player it was read as.
		expect((await w.repo.loadState(league)).playerBySimId('steam:123')?.name).toBe('Andrea Meli');
	});

	it('a class chosen after accepting keeps the names read, and says so', async () => {
		const bytes = readFileSync(
			new URL('../fixtures/results/billyjack2-iRacing-League-Manager/eventresult_25819184.csv', import.meta.url),
		);
		const probe = await w.services.races.submit(organizer, { file: { name: 'r.csv', bytes } });
		await w.services.races.cancel(organizer, probe.id);
		const winner = probe.lines[0]!.name;
		await addRace(w, `1. ${winner}x\n2. Bob`);
		const preview = await w.services.races.submit(organizer, { file: { name: 'r.csv', bytes } });
		expect(preview.suggestions?.renames).toEqual([[winner, `${winner}x`]]);
		const next = await w.services.races.acceptSuggestions(organizer, preview.id);
		expect(next.lines[0]).toMatchObject({ name: `${winner}x`, isNew: false });
		const lmp = await w.services.races.chooseClass(organizer, next.id, 1);
		expect(lmp.carClass).toBe(next.classes![0]!.name);
		expect(lmp.accepted).toBe(`Read ${winner} as ${winner}x.`);
		expect(lmp.lines[0]).toMatchObject({ name: `${winner}x`, isNew: false });
	});
});
