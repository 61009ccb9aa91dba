/** Why did my rating move: /rating, /race show and the preview over the memory store, fixed clock. */
import { beforeAll, describe, expect, it } from 'vitest';
import { fmtDelta } from '../../commands/shared.js';
import { partsLine } from '../../commands/rating/why-text.js';
import { ensureSampleLeague } from '../../src/console/sample-league.js';
import { ratingScale } from '../../src/formats/rating-scale.js';
import { createReplay } from '../../src/league/replay.js';
import { getSystem } from '../../src/ratings/index.js';
import { fieldOdds } from '../../src/ratings/odds/odds.js';
import type { FieldEntry, Race } from '../../src/ratings/types.js';
import { createChangeCache } from '../../src/services/caches/change-cache.js';
import type { ChangeWhy } from '../../src/services/ratings/change-why.js';
import { leagueParams } from '../support/league-params.js';
import { GUILD, member, organizer, world, type World } from './helpers.js';

let w: World;
let leagueId: string;
let races: Race[];

/** The rated field of every race under `system`, replayed here with the replay alone (no explanation code). */
function fields(system: string): Map<string, { field: readonly FieldEntry<unknown>[]; expected: number[] }> {
	const impl = getSystem(system);
	const params: unknown = leagueParams(impl);
	const replay = createReplay<unknown, unknown>(impl, params);
	const out = new Map<string, { field: readonly FieldEntry<unknown>[]; expected: number[] }>();
	for (const race of races) {
		const prepared = replay.prepare(race);
		replay.commit(prepared);
		const expected = fieldOdds(prepared.field.map((e) => impl.performance(e.state, params))).expectedPosition;
		out.set(race.id, { field: prepared.field, expected });
	}
	return out;
}

/** The invariants of one explained racer against the race's own field. */
function checkWhy(why: ChangeWhy, field: readonly FieldEntry<unknown>[], expected: readonly number[]): void {
	const i = field.findIndex((e) => e.player === why.player);
	expect(i).toBeGreaterThanOrEqual(0);
	expect(why.rank).toBe(field[i]!.rank);
	expect(why.fieldSize).toBe(field.length);
	expect(why.expectedRank).toBe(expected[i]);
	const rating = (e: FieldEntry<unknown>) => (e.state as { rating: number }).rating;
	const beaten = field.filter((e) => e.rank > why.rank);
	const ahead = field.filter((e) => e.rank < why.rank);
	expect(why.beaten.count).toBe(beaten.length);
	expect(why.lostTo.count).toBe(ahead.length);
	if (beaten.length > 0) expect(why.strongestBeaten?.rating).toBe(Math.max(...beaten.map(rating)));
	if (ahead.length > 0) expect(why.strongestLostTo?.rating).toBe(Math.max(...ahead.map(rating)));
	expect(why.before.rating).toBe(rating(field[i]!));
	if (why.parts.kind === 'opponents') {
		const sum = why.parts.base + (why.beaten.sum ?? 0) + (why.tied.sum ?? 0) + (why.lostTo.sum ?? 0);
		expect(Math.abs(sum - why.change)).toBeLessThan(1e-9);
	}
	expect(why.name).not.toMatch(/^#\d+$/);
}

beforeAll(async () => {
	w = world();
	leagueId = (await ensureSampleLeague(w.repo, GUILD)).league.id;
	races = (await w.repo.loadState(leagueId)).ratedRaces().map((r) => r.race);
});

describe('the change cache', () => {
	it('yields to the event loop while it replays the whole history', async () => {
		const cache = createChangeCache(w.repo);
		const league = (await w.repo.getLeague(leagueId))!;
		let ticks = 0;
		const tick = () => {
			ticks++;
			if (ticks < 1000) timer = setImmediate(tick);
		};
		let timer = setImmediate(tick);
		const before = ticks;
		const changes = await cache.lastChanges(league, 'folyami');
		clearImmediate(timer);
		expect(changes.size).toBeGreaterThan(200);
		// 293 races, 200 per slice: the replay let the event loop run at least once.
		expect(ticks - before).toBeGreaterThanOrEqual(1);
	});
});

describe('/rating explains the last race', () => {
	it.each(['folyami', 'glicko', 'endure', 'speed'])('%s: place, expected place, opponents, parts', async (system) => {
		const all = fields(system);
		for (const name of ['Argammon', 'Duplode', 'dreadnaut']) {
			const r = await w.services.ratings.rating(member, { player: name, system });
			expect(r.why, name).toBeDefined();
			const why = r.why!;
			expect(why.race).toBe(r.lastChange!.race);
			expect(why.change).toBe(r.lastChange!.after - r.lastChange!.before);
			const { field, expected } = all.get(why.race)!;
			checkWhy(why, field, expected);
			if (system === 'endure' || system === 'speed') expect(why.parts.kind).toBe('rounds');
			else expect(why.parts.kind).toBe('opponents');
		}
	});

	it('best and worst races are the most places above and below the expected place', async () => {
		const all = fields('folyami');
		const r = await w.services.ratings.rating(member, { player: 'Duplode' });
		const id = r.player.id;
		const gains = [...all.values()].flatMap(({ field, expected }) => {
			const i = field.findIndex((e) => e.player === id);
			return i === -1 ? [] : [expected[i]! - field[i]!.rank];
		});
		expect(gains.length).toBe(r.summary!.races);
		const { best, worst } = r.standouts!;
		expect(best.expectedRank - best.rank).toBe(Math.max(...gains));
		expect(worst.expectedRank - worst.rank).toBe(Math.min(...gains));
	});

	it('follows a void: the explanation moves to the race before', async () => {
		const v = world();
		await v.services.leagues.create(organizer, { name: 'Cup' });
		for (const text of ['1. Alice\n2. Bob\n3. Carol', '1. Carol\n2. Bob\n3. Alice']) {
			const p = await v.services.races.submit(organizer, { text });
			await v.services.races.confirm(organizer, p.id);
		}
		const last = await v.services.ratings.rating(member, { player: 'alice' });
		expect(last.why).toMatchObject({ race: 'R2', rank: 3, beaten: { count: 0 }, lostTo: { count: 2 } });
		expect(last.why!.strongestLostTo?.name).toMatch(/^(Bob|Carol)$/);
		await v.services.races.void(organizer, 'R2', 'wrong track');
		const after = await v.services.ratings.rating(member, { player: 'alice' });
		// R1 is everyone's first race: equal ratings, so the expected place is the middle one.
		expect(after.why).toMatchObject({ race: 'R1', rank: 1, expectedRank: 2, beaten: { count: 2 } });
		expect(after.standouts).toBeUndefined();
	});
});

describe('ties', () => {
	it('a tie group shares its first place; the tied count is its other members', async () => {
		const v = world();
		await v.services.leagues.create(organizer, { name: 'Cup' });
		for (const text of ['1. Alice\n1. Bob\n3. Carol', '1. Carol\n2. Alice\n2. Bob']) {
			const p = await v.services.races.submit(organizer, { text });
			await v.services.races.confirm(organizer, p.id);
		}
		const bob = await v.services.ratings.rating(member, { player: 'bob' });
		// R2: Bob and Alice tie for 2nd (tidy rank 2.5), behind Carol.
		expect(bob.why).toMatchObject({ race: 'R2', rank: 2.5, place: 2, tied: { count: 1 }, lostTo: { count: 1 } });
		const places = [bob.standouts!.best, bob.standouts!.worst].map((r) => [r.race, r.rank, r.place]).sort();
		expect(places).toEqual([
			['R1', 1.5, 1],
			['R2', 2.5, 2],
		]);
	});
});

describe('/race show explains every racer', () => {
	it('the newest race and an old one (replayed on demand) under the headline system', async () => {
		const all = fields('folyami');
		for (const id of [races.at(-1)!.id, races[9]!.id]) {
			const view = await w.services.races.show(member, id);
			const { field, expected } = all.get(id)!;
			expect(view.why?.system).toBe('folyami');
			expect(view.why!.racers.map((r) => r.player)).toEqual(field.map((e) => e.player));
			for (const why of view.why!.racers) checkWhy(why, field, expected);
		}
	});

	it('stk: base points plus exchanges for a timed race; an untimed race says why it was not rated', async () => {
		const v = world();
		await v.services.leagues.create(organizer, { name: 'Cup', headline: 'stk' });
		for (const text of ['1. Alice 1:00.000\n2. Bob 1:01.000\n3. Carol 1:30.000', '1. Alice\n2. Bob']) {
			const p = await v.services.races.submit(organizer, { text });
			await v.services.races.confirm(organizer, p.id);
		}
		const timed = (await v.services.races.show(member, 'R1')).why!;
		expect(timed.system).toBe('stk');
		for (const why of timed.racers) {
			expect(why.parts).toMatchObject({ kind: 'opponents', base: 90 }); // 2·max(45 − 0, 4) for a first race
			const sum = why.parts.kind === 'opponents' ? why.parts.base + why.beaten.sum! + why.lostTo.sum! : NaN;
			expect(Math.abs(sum - why.change)).toBeLessThan(1e-9);
		}
		const untimed = (await v.services.races.show(member, 'R2')).why!;
		expect(untimed.racers).toEqual([]);
		expect(untimed.unrated).toMatch(/positive finish time/);
	});

	it('a voided race is not explained', async () => {
		const v = world();
		await v.services.leagues.create(organizer, { name: 'Cup' });
		const p = await v.services.races.submit(organizer, { text: '1. Alice\n2. Bob' });
		await v.services.races.confirm(organizer, p.id);
		expect((await v.services.races.show(member, 'R1')).why?.racers).toHaveLength(2);
		await v.services.races.void(organizer, 'R1', 'test');
		expect((await v.services.races.show(member, 'R1')).why).toBeUndefined();
	});
});

describe('the preview', () => {
	it("shows each racer's expected place: the odds engine's expected position over the rated field", async () => {
		const p = await w.services.races.submit(organizer, { text: '1. Argammon\n2. Newbie\n3. Duplode\n4. dreadnaut' });
		const impl = getSystem('folyami');
		const params: unknown = leagueParams(impl);
		const replay = createReplay<unknown, unknown>(impl, params);
		for (const race of races) replay.apply(race);
		const state = await w.repo.loadState(leagueId);
		const perf = (name: string) => impl.performance(replay.stateAt(state.resolve(name)?.id ?? name, p.date), params);
		const odds = fieldOdds(['Argammon', 'Newbie', 'Duplode', 'dreadnaut'].map(perf));
		expect(p.lines.map((l) => l.expectedRank)).toEqual(odds.expectedPosition);
	});
});

describe('on screen, the parts add up', () => {
	it.each(['endure', 'speed'])(
		'%s: step × (observed − expected) from the numbers shown rounds to the change shown',
		async (system) => {
			const scale = ratingScale(system, leagueParams(getSystem(system)));
			const players = (await w.repo.ratingsAt(leagueId, system)).standings.slice(0, 60);
			const state = await w.repo.loadState(leagueId);
			let checked = 0;
			for (const standing of players) {
				const r = await w.services.ratings.rating(member, { player: state.resolve(standing.player)!.name, system });
				const why = r.why!;
				if (why.parts.kind !== 'rounds') throw new Error(`${system} explains by rounds`);
				const line = partsLine(scale, why)!;
				const [, change, step, observed, expected] =
					/^Change ([+−][\d.]+) = ([\d.]+) points × \((\d+) \w+ − ([\d.]+) expected/.exec(line)!;
				const shown = Number(change!.replace('−', '-'));
				const exact = scale.difference(why.parts.k * (why.parts.observed - why.parts.expected));
				// Where the exact change rounds to the change shown, the shown factors give it too.
				if (Math.abs(exact - shown) < 0.04) {
					expect(fmtDelta(Number(step) * (Number(observed) - Number(expected))), line).toBe(change);
					checked++;
				}
			}
			expect(checked).toBeGreaterThan(25); // of 60: the others’ exact change rounds away from the difference shown
		},
	);
});
