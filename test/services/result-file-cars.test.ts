/**
 * Cars from the sims' result files into the stored race, with no typing by the organizer: each racer's car model (not
 * the class) goes with their entry through `/race submit file:`, the results inbox, a correction and `/league export`
 * then `/league import`. Real files from test/fixtures/results (see each folder's PROVENANCE.md); the cars expected
 * were read off the files by hand (the field named beside each).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createInboxService, type InboxOutlet } from '../../src/services/inbox/inbox-service.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { organizer, world, type World } from './helpers.js';

const fixture = (path: string) => readFileSync(join(import.meta.dirname, '../fixtures/results', path));

async function league(name = 'Cup'): Promise<{ w: World; id: string }> {
	const w = world();
	const info = await w.services.leagues.create(organizer, { name, headline: 'endure' });
	return { w, id: info.id };
}

/** The stored race's cars by racer name, after submit and Confirm of the file. */
async function storedCars(path: string, carClass?: string): Promise<Map<string, string | undefined>> {
	const { w, id } = await league();
	const name = path.split('/').at(-1)!;
	const preview = await w.services.races.submit(organizer, { file: { name, bytes: fixture(path) }, carClass });
	const { race } = await w.services.races.confirm(organizer, preview.id);
	const state = await w.repo.loadState(id);
	return new Map(state.race(race)!.entries.map((e) => [state.resolve(e.player)!.name, e.car]));
}

describe('a sim’s result file stores each racer’s car model', () => {
	it('Assetto Corsa server (Result[].CarModel)', async () => {
		const cars = await storedCars('JustaPenguin-assetto-server-manager/2019_3_2_21_4_RACE.json');
		expect(cars.get('Joseph Elton')).toBe('ks_porsche_911_carrera_rsr');
		expect(cars.get('Callum Jones')).toBe('ks_alfa_33_stradale');
		expect([...cars.values()].every((c) => c !== undefined)).toBe(true);
	});

	it('ACC (car.carModel: 1 Mercedes-AMG GT3, 3 Audi R8 LMS, Kunos’s list), the model and not the class GT3', async () => {
		const cars = await storedCars('mauserrifle-simresults/assettocorsa-competizione/191003_235558_R.json');
		expect([...cars]).toEqual([
			['Andrea Mel', 'Mercedes-AMG GT3'],
			['Alberto For', 'Audi R8 LMS'],
			['Federico Siv', 'Audi R8 LMS'], // lastName "Siv\nTEAMname": the team after the line break
		]);
	});

	it('Le Mans Ultimate XML (<CarType>, not <CarClass> LMP2_ELMS nor the livery’s <VehName>)', async () => {
		const cars = await storedCars('Swizzjack-lmu-pitwall/2026_03_14_15_10_16-80R1.xml');
		expect(cars.get('Jeffrey Miguel Reno Richie')).toBe('Oreca 07');
		expect(cars.size).toBe(35);
		expect([...cars.values()].every((c) => c !== undefined)).toBe(true);
	});

	it('iRacing CSV (the Car column), also for one class rated alone', async () => {
		const all = await storedCars('billyjack2-iRacing-League-Manager/eventresult_25819184.csv');
		expect(all.get('Sai Andra')).toBe('Porsche 919');
		expect(new Set(all.values()).size).toBeGreaterThan(1); // a multi-class field: several models
		const lmp1 = await storedCars('billyjack2-iRacing-League-Manager/eventresult_25819184.csv', 'LMP1 Class');
		expect(lmp1.size).toBe(7);
		// The class is not the car: LMP1 Class holds six Porsche 919 and Brandon Guarascia's Audi R18.
		expect(lmp1.get('Brandon Guarascia')).toBe('Audi R18');
		expect([...lmp1.values()].filter((c) => c === 'Porsche 919')).toHaveLength(6);
	});

	it('iRacing JSON team race (car_name of each car: the GTP class holds several models)', async () => {
		const cars = await storedCars('jasondilworth56-iracingdataapi/result_with_team.json');
		expect(cars.get('Crayola Advanced Engineering')).toBe('Porsche 963 GTP');
		expect(cars.get('Granateapfel RT')).toBe('Ferrari 499P');
	});

	it('RaceRoom server JSON (Players[].Car) and RACE 07 text (Vehicle=)', async () => {
		const r3e = await storedCars('mauserrifle-simresults/raceroom-server/log.with.incidents.json');
		expect(r3e.get('Magnus Stjerneby')).toBe('Mercedes-AMG C 63 DTM 2016');
		const race07 = await storedCars('mauserrifle-simresults/race07/1h-Racer_2010_09_20_22_37_09_Race1.txt');
		expect(race07.get('zaurus_jr')).toBe('Honda Accord R 2008');
		expect(race07.get('nawo')).toBe('AUDI A4');
	});

	it('a results page pasted (formula1.com: its Car column is the team) stores no car', async () => {
		const cars = await storedCars('mkalam-alami-formula1point5/tables-samples.ts.d72e7e9.race.txt');
		expect([...cars.values()].every((c) => c === undefined)).toBe(true);
	});
});

describe('the cars of a file’s race after it is stored', () => {
	const AC = 'JustaPenguin-assetto-server-manager/2019_3_2_21_4_RACE.json';

	it('a correction of its places keeps each racer’s car (a paste has no car column)', async () => {
		const { w, id } = await league();
		const preview = await w.services.races.submit(organizer, { file: { name: 'r.json', bytes: fixture(AC) } });
		const { race } = await w.services.races.confirm(organizer, preview.id);
		const before = (await w.repo.loadState(id)).race(race)!;
		const names = before.entries.map((e) => w.repo.loadState(id).then((s) => s.resolve(e.player)!.name));
		const order = await Promise.all(names);
		// The first two swapped.
		const text = [order[1], order[0], ...order.slice(2)].map((n, i) => `${i + 1}. ${n}`).join('\n');
		await w.services.races.edit(organizer, race, text, 'swapped');
		const state = await w.repo.loadState(id);
		const after = state.race(race)!.entries;
		expect(after.map((e) => state.resolve(e.player)!.name)).toEqual([order[1], order[0], ...order.slice(2)]);
		const carOf = (entries: typeof after) => new Map(entries.map((e) => [e.player, e.car]));
		expect(carOf(after)).toEqual(carOf(before.entries));
		expect(after[1]!.car).toBe('ks_porsche_911_carrera_rsr'); // Joseph Elton, now second
	});

	it('a correction of its places keeps each racer’s team as well (the car’s stand-in where a file names none)', async () => {
		const { w, id } = await league();
		const file = fixture('Swizzjack-lmu-pitwall/2026_03_14_15_10_16-80R1.xml');
		const preview = await w.services.races.submit(organizer, { file: { name: 'r.xml', bytes: file } });
		const { race } = await w.services.races.confirm(organizer, preview.id);
		const before = (await w.repo.loadState(id)).race(race)!;
		expect(before.entries.some((e) => e.team !== undefined)).toBe(true);
		const state0 = await w.repo.loadState(id);
		const order = before.entries.map((e) => state0.resolve(e.player)!.name);
		const text = [order[1], order[0], ...order.slice(2)].map((n, i) => `${i + 1}. ${n}`).join('\n');
		await w.services.races.edit(organizer, race, text, 'swapped');
		const after = (await w.repo.loadState(id)).race(race)!.entries;
		const teamOf = (entries: typeof after) => new Map(entries.map((e) => [e.player, e.team]));
		expect(teamOf(after)).toEqual(teamOf(before.entries));
	});

	it('/league export writes the car column and /league import of it stores the same cars', async () => {
		const { w, id } = await league('Home');
		const preview = await w.services.races.submit(organizer, { file: { name: 'r.json', bytes: fixture(AC) } });
		await w.services.races.confirm(organizer, preview.id);
		const files = await w.services.transfer.exportFiles(organizer, 'Home');
		expect(files.history.split('\n')[0]).toBe('race,date,player,position,time,status,car');
		expect(files.history).toContain(',Joseph Elton,1,');
		const copy = await w.services.leagues.create(organizer, { name: 'Copy', headline: 'endure' });
		await w.services.transfer.importFile(organizer, { league: 'Copy', file: { name: 'h.csv', text: files.history } });
		const [home, copied] = [await w.repo.loadState(id), await w.repo.loadState(copy.id)];
		const cars = (state: typeof home) =>
			state.races()[0]!.entries.map((e) => `${state.resolve(e.player)!.name}:${e.car ?? '-'}`);
		expect(cars(copied)).toEqual(cars(home));
		expect(cars(home)).toContain('Joseph Elton:ks_porsche_911_carrera_rsr');
		expect((await w.services.transfer.exportFiles(organizer, 'Copy')).history).toBe(files.history);
	});

	it('a file sent to the results inbox, auto-confirmed, stores the cars', async () => {
		const store = createMemoryStore();
		const w = world(store);
		const info = await w.services.leagues.create(organizer, { name: 'Club', resultsChannel: '600000000000000001' });
		const inbox = createInboxService(w.repo, w.services.leagues, w.services.races, {
			store: store.namespace('inbox'),
			clock: () => new Date(w.now.ms),
			url: () => 'http://127.0.0.1:8080',
		});
		await inbox.setAutoConfirm(organizer, undefined, true);
		const outlet: InboxOutlet = {
			poster: {
				post: () => Promise.resolve({ ok: true, messageId: 'm1' }),
				findMarked: () => Promise.resolve({ ok: true, messageId: undefined }),
			},
			messages: { preview: () => ({ content: 'preview' }), stored: () => ({ content: 'stored' }) },
		};
		const receipt = await inbox.receive(info, { name: '191003_235558_R.json', bytes: fixture(ACC) }, outlet);
		expect(receipt.kind).toBe('stored');
		const state = await w.repo.loadState(info.id);
		expect(state.races()[0]!.entries.map((e) => e.car)).toEqual(['Mercedes-AMG GT3', 'Audi R8 LMS', 'Audi R8 LMS']);
	});
});

const ACC = 'mauserrifle-simresults/assettocorsa-competizione/191003_235558_R.json';
