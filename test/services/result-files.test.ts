/**
 * A sim's result file submitted as a race (race-service.ts with submission.ts): what the preview says, what is
 * stored, and drivers known by their sim id. Real iRacing exports from test/fixtures/results (see PROVENANCE.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventCount, member, organizer, world, type World } from './helpers.js';

const fixture = (path: string) => readFileSync(join(import.meta.dirname, '../fixtures/results', path));
const LEAGUE_CSV = 'billyjack2-iRacing-League-Manager/eventresult_25819184.csv';

async function cup(): Promise<{ w: World; id: string }> {
	const w = world();
	const league = await w.services.leagues.create(organizer, { name: 'Cup', headline: 'glicko' });
	return { w, id: league.id };
}

describe('a result file submitted as a race', () => {
	it('previews as the sim classified it, says what it was read as and which classes it holds; Confirm stores it', async () => {
		const { w, id } = await cup();
		const preview = await w.services.races.submit(organizer, {
			file: { name: 'eventresult.csv', bytes: fixture(LEAGUE_CSV) },
		});
		expect(preview.source).toBe('Read as iRacing results export (CSV): 33 racers');
		expect(preview.date).toBe('2019-01-21');
		expect(preview.name).toBe('Phillip Island Circuit');
		expect(preview.lines.slice(0, 3).map((l) => [l.position, l.name, l.status, l.note])).toEqual([
			[1, 'Sai Andra', 'finished', 'LMP1 Class'],
			[2, 'Jason DeVriese', 'finished', 'LMP1 Class'],
			[3, 'Lionel Duprat', 'finished', '+2 laps · LMP1 Class'],
		]);
		expect(preview.warnings.find((x) => x.startsWith('The file holds 3 classes'))).toMatch(
			/^The file holds 3 classes, LMP1 Class \(7 cars\), HPD ARX-01c \(\d+ cars\), .*: rated as one field in overall order\. To rate one class by its class positions, choose it below \(or submit with class:LMP1 Class\)\.$/,
		);
		const stored = await w.services.races.confirm(organizer, preview.id);
		expect(stored.already).toBe(false);
		const state = await w.repo.loadState(id);
		expect(state.playerBySimId('iracing:131528')?.name).toBe('Sai Andra');
		expect(state.players().filter((p) => (p.simIds ?? []).length > 0)).toHaveLength(33);
	});

	it('one class alone, by class position; a class the file lacks is refused and nothing is stored', async () => {
		const { w, id } = await cup();
		const bytes = fixture(LEAGUE_CSV);
		const gt = await w.services.races.submit(organizer, { file: { name: 'r.csv', bytes }, carClass: 'lmp1 class' });
		expect(gt.source).toBe('Read as iRacing results export (CSV): 7 racers of class LMP1 Class');
		expect(gt.lines.map((l) => l.name)).toEqual([
			'Sai Andra',
			'Jason DeVriese',
			'Lionel Duprat',
			'Daniel Graulty',
			'Mark A Wilson',
			'John Ulmer', // Running, 7 laps: placed 31st overall, after a car that retired
			'Brandon Guarascia', // Disconnected: after the finishers
		]);
		const before = await eventCount(w, id);
		await expect(
			w.services.races.submit(organizer, { file: { name: 'r.csv', bytes }, carClass: 'GT3' }),
		).rejects.toThrow(
			/^The file has no class "GT3": its classes are LMP1 Class \(7 cars\), HPD ARX-01c \(9 cars\), GTE Class \(17 cars\)\. Nothing was stored\.$/,
		);
		await expect(w.services.races.submit(organizer, { text: '1. Ann\n2. Bob', carClass: 'GT3' })).rejects.toThrow(
			'class: is for a sim result file with classes; a pasted scoreboard has none.',
		);
		expect(await eventCount(w, id)).toBe(before);
	});

	it('a class chosen under the preview previews that class alone, then every class again; Confirm stores the last', async () => {
		const { w, id } = await cup();
		const all = await w.services.races.submit(organizer, { file: { name: 'r.csv', bytes: fixture(LEAGUE_CSV) } });
		expect(all.classes).toEqual([
			{ name: 'LMP1 Class', cars: 7 },
			{ name: 'HPD ARX-01c', cars: 9 },
			{ name: 'GTE Class', cars: 17 },
		]);
		expect(all.carClass).toBeUndefined();
		await expect(w.services.races.chooseClass(member, all.id, 2)).rejects.toThrow(/^Only league organizers/);
		const hpd = await w.services.races.chooseClass(organizer, all.id, 2);
		expect(hpd).toMatchObject({ carClass: 'HPD ARX-01c', classes: all.classes });
		expect(hpd.lines).toHaveLength(9);
		expect(hpd.warnings.some((x) => x.startsWith('The file holds'))).toBe(false);
		// The first preview is gone: its buttons answer that it expired.
		await expect(w.services.races.confirm(organizer, all.id)).rejects.toThrow(/expired/);
		const again = await w.services.races.chooseClass(organizer, hpd.id, 0);
		expect(again.lines).toHaveLength(33);
		await expect(w.services.races.chooseClass(organizer, again.id, 9)).rejects.toThrow(
			'This class is no longer offered: submit the race again.',
		);
		const stored = await w.services.races.confirm(organizer, again.id);
		expect(stored.already).toBe(false);
		expect((await w.repo.loadState(id)).races()[0]!.entries).toHaveLength(33);
	});

	it("a league's class rates that class of every multi-class file; a file without it is refused; class: and All classes override it", async () => {
		const { w } = await cup();
		await w.services.leagues.configure(organizer, 'Cup', { carClass: 'gte class' });
		const bytes = fixture(LEAGUE_CSV);
		const gte = await w.services.races.submit(organizer, { file: { name: 'r.csv', bytes } });
		expect(gte.source).toBe('Read as iRacing results export (CSV): 17 racers of class GTE Class');
		const all = await w.services.races.chooseClass(organizer, gte.id, 0);
		expect(all.lines).toHaveLength(33);
		const lmp = await w.services.races.submit(organizer, { file: { name: 'r.csv', bytes }, carClass: 'LMP1 Class' });
		expect(lmp.lines).toHaveLength(7);
		await w.services.leagues.configure(organizer, 'Cup', { carClass: 'GT3' });
		await expect(w.services.races.submit(organizer, { file: { name: 'r.csv', bytes } })).rejects.toThrow(
			/^This league rates class GT3, and the file's classes are LMP1 Class \(7 cars\), HPD ARX-01c \(9 cars\), GTE Class \(17 cars\): to rate one of them here anyway, submit with class:LMP1 Class\. Nothing was stored\.$/,
		);
		// A file that names no class is every racer's, whatever the league's class.
		const single = await w.services.races.submit(organizer, { text: '1. Ann\n2. Bob' });
		expect(single.lines).toHaveLength(2);
		await w.services.leagues.configure(organizer, 'Cup', { carClass: 'all' });
		expect((await w.services.leagues.resolve(organizer, 'Cup')).config.carClass).toBeUndefined();
	});

	it('a driver renamed in the sim is the same player by their iRacing id, and the preview says so', async () => {
		const { w, id } = await cup();
		const bytes = fixture(LEAGUE_CSV);
		await w.services.races.confirm(
			organizer,
			(await w.services.races.submit(organizer, { file: { name: 'r.csv', bytes } })).id,
		);
		const renamed = Buffer.from(bytes.toString('latin1').replace('"Sai Andra"', '"Sai A."'), 'latin1');
		const preview = await w.services.races.submit(organizer, {
			file: { name: 'r.csv', bytes: renamed },
			date: '2019-01-28',
		});
		expect(preview.lines[0]).toMatchObject({
			name: 'Sai Andra',
			isNew: false,
			note: '“Sai A.” in the file, same iRacing id · LMP1 Class',
		});
		const { race } = (await w.services.races.confirm(organizer, preview.id)) as { race: string };
		const state = await w.repo.loadState(id);
		expect(state.race(race)!.entries[0]!.player).toBe(state.playerBySimId('iracing:131528')!.id);
		expect(state.resolve('Sai A.')).toBeUndefined(); // no new player
		expect((await w.services.ratings.rating(member, { player: 'Sai Andra' })).summary?.races).toBe(2);
	});

	it('a Mario Kart lounge table pasted as text is placed by points, not line order (it was read wrongly, silently)', async () => {
		const { w } = await cup();
		const table = fixture('BadWolf1023-MKW-Table-Bot/MogiUpdate.py.test_table_text_1.txt').toString('utf8');
		const preview = await w.services.races.submit(organizer, { text: table });
		expect(preview.source).toBe('Read as Mario Kart lounge table (Lorenzi table maker): 12 racers');
		// promise 29+29+42 = 100 and Garrett 24+39+37 = 100 share first; Axis 98 third (the 9th line).
		expect(preview.lines.slice(0, 4).map((l) => [l.position, l.name])).toEqual([
			[1, 'promise'],
			[1, 'Garrett'],
			[3, 'Axis'],
			[4, 'PhillyGator'],
		]);
		expect(preview.lines.some((l) => /\d\|/u.test(l.name))).toBe(false);
	});

	it('a file that is not text is refused, naming what it expected', async () => {
		const { w, id } = await cup();
		const before = await eventCount(w, id);
		const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000010', 'hex');
		await expect(w.services.races.submit(organizer, { file: { name: 'x.png', bytes: png } })).rejects.toThrow(
			'The file is not text: expected a sim result file (JSON, XML, CSV, text) or a scoreboard. Nothing was stored.',
		);
		expect(await eventCount(w, id)).toBe(before);
	});
});
