/** rating, odds, leaderboard, league, player and autocomplete services over the memory store. */
import { beforeEach, describe, expect, it } from 'vitest';
import { replayHistory } from '../../src/league/replay.js';
import { getSystem } from '../../src/ratings/index.js';
import { fieldOdds, headToHead } from '../../src/ratings/odds/odds.js';
import type { Race } from '../../src/ratings/types.js';
import { rankChoices } from '../../src/services/players/autocomplete.js';
import { leagueParams } from '../support/league-params.js';
import { addRace, eventCount, GUILD, member, organizer, world, type World } from './helpers.js';

let w: World;
let league: string;

/** Three races of Alice (#1), Bob (#2), Carol (#3), as ids, for the rating module's own replay. */
const races: Race[] = [
	['#1', '#2', '#3'],
	['#2', '#1', '#3'],
	['#1', '#3', '#2'],
].map((order, i) => ({
	id: `R${i + 1}`,
	entries: order.map((player, p) => ({ player, position: p + 1, status: 'finished' as const })),
}));

beforeEach(async () => {
	w = world();
	league = (await w.services.leagues.create(organizer, { name: 'Cup' })).id;
	await addRace(w, '1. Alice\n2. Bob\n3. Carol');
	await addRace(w, '1. Bob\n2. Alice\n3. Carol');
	await addRace(w, '1. Alice\n2. Carol\n3. Bob');
});

describe('rating service', () => {
	it('states the provisional rule of the system shown, with the league’s parameters', async () => {
		const rule = async (system: string) =>
			(await w.services.ratings.rating(member, { player: 'Alice', system })).provisionalRule;
		expect(await rule('glicko')).toBe(
			'its RD is above 110: the rating is still uncertain (RD shrinks with races and grows while idle)',
		);
		expect(await rule('folyami')).toBe('it has fewer than 12 rated races (until then it moves faster)');
		expect(await rule('endure')).toMatch(/^it has fewer than \d+ rated races$/);
		await w.services.leagues.configure(organizer, undefined, {
			parameters: 'endure.extended=true glicko.provisionalRd=90',
		});
		// kInf 1: provisional while √k · 400/ln 10 > √0.5 · 173.7 = 122.8 points.
		expect(await rule('endure')).toMatch(/^its uncertainty is above ±122\.8 points \(k above 0\.5 × 1\): /);
		expect(await rule('glicko')).toMatch(/^its RD is above 90: /);
		const alice = await w.services.ratings.rating(member, { player: 'Alice', system: 'glicko' });
		expect(alice.summary!.provisional).toBe(alice.summary!.uncertainty! > 90);
	});

	it('a change of how retirements are read replays every system, and /rating follows', async () => {
		await addRace(w, '1. Carol\n2. Alice\nDNF Bob\nDNF Dave');
		const withDnf = (reading: 'ordered' | 'tied' | 'excluded') => {
			const r4: Race = {
				id: 'R4',
				entries: [
					{ player: '#3', position: 1, status: 'finished' },
					{ player: '#1', position: 2, status: 'finished' },
					{ player: '#2', position: 3, status: 'DNF' },
					{ player: '#4', position: 4, status: 'DNF' },
				],
			};
			const folyami = getSystem('folyami');
			return replayHistory(folyami, leagueParams(folyami), [...races, r4], { retirements: reading }).standings();
		};
		const bob = async () => (await w.services.ratings.rating(member, { player: 'Bob' })).summary?.rating;
		expect(await bob()).toBe(withDnf('ordered').find((s) => s.player === '#2')!.rating);
		for (const reading of ['tied', 'excluded', 'ordered'] as const) {
			const info = await w.services.leagues.configure(organizer, undefined, { retirements: reading });
			expect(info.config.retirements).toBe(reading === 'ordered' ? undefined : reading);
			expect(await bob()).toBe(withDnf(reading).find((s) => s.player === '#2')!.rating);
		}
		// The three readings differ here, so the test can tell them apart.
		expect(
			new Set((['ordered', 'tied', 'excluded'] as const).map((r) => withDnf(r).find((s) => s.player === '#2')!.rating))
				.size,
		).toBe(3);
	});

	it('reports the rating module’s numbers, rank and last change', async () => {
		const folyami = getSystem('folyami');
		const last = new Map<string, { before: number; after: number }>();
		const replay = replayHistory(folyami, leagueParams(folyami), races, {}, (o) => {
			for (const c of o.changes) last.set(c.player, { before: c.before.rating, after: c.after.rating });
		});
		const r = await w.services.ratings.rating(member, { player: 'bob' });
		const standings = replay.standings();
		expect(r.summary?.rating).toBe(standings.find((s) => s.player === '#2')!.rating);
		expect(r.rank).toBe(standings.findIndex((s) => s.player === '#2') + 1);
		expect(r.summary?.races).toBe(3);
		expect(r.lastChange).toMatchObject({ race: 'R3', ...last.get('#2') });
	});

	it('the last change follows new races and a void, equal to a replay of the races that count', async () => {
		const folyami = getSystem('folyami');
		const lastOf = (counted: Race[], player: string) => {
			const last = new Map<string, { race: string; before: number; after: number }>();
			replayHistory(folyami, leagueParams(folyami), counted, {}, (o) => {
				for (const c of o.changes)
					last.set(c.player, { race: o.race.id, before: c.before.rating, after: c.after.rating });
			});
			return last.get(player);
		};
		await w.services.ratings.rating(member, { player: 'bob' }); // fills the cache at R3
		await addRace(w, '1. Carol\n2. Bob\n3. Alice');
		const r4: Race = {
			id: 'R4',
			entries: ['#3', '#2', '#1'].map((player, p) => ({ player, position: p + 1, status: 'finished' as const })),
		};
		expect((await w.services.ratings.rating(member, { player: 'bob' })).lastChange).toMatchObject(
			lastOf([...races, r4], '#2')!,
		);
		await w.services.races.void(organizer, 'R4', 'entered twice');
		expect((await w.services.ratings.rating(member, { player: 'bob' })).lastChange).toMatchObject(lastOf(races, '#2')!);
	});

	it('uses the caller’s linked player by default, by mention too, and explains when unlinked', async () => {
		await expect(w.services.ratings.rating(member, {})).rejects.toMatchObject({ code: 'not-linked' });
		await w.services.players.link(organizer, { player: 'Carol', user: member.userId });
		expect((await w.services.ratings.rating(member, {})).player.name).toBe('Carol');
		expect((await w.services.ratings.rating(organizer, { player: `<@${member.userId}>` })).player.name).toBe('Carol');
		await expect(w.services.ratings.rating(member, { player: '<@812345678901234567>' })).rejects.toMatchObject({
			code: 'user-not-linked',
		});
	});

	it('an unknown player is refused with a suggestion; an unknown system is refused', async () => {
		await expect(w.services.ratings.rating(member, { player: 'Alcie' })).rejects.toThrow(
			/no player "Alcie" in Cup\. Did you mean \*\*Alice\*\*\?/,
		);
		await expect(w.services.ratings.rating(member, { player: 'Alice', system: 'elo' })).rejects.toMatchObject({
			code: 'unknown-system',
		});
	});

	it('glicko reports RD as uncertainty', async () => {
		const r = await w.services.ratings.rating(member, { player: 'Alice', system: 'glicko' });
		const glicko = getSystem('glicko');
		const s = replayHistory(glicko, leagueParams(glicko), races)
			.standings()
			.find((x) => x.player === '#1')!;
		expect(r.summary).toMatchObject({ rating: s.rating, uncertainty: s.uncertainty, provisional: s.provisional });
	});
});

describe('odds service', () => {
	it('matches fieldOdds and headToHead on the same states', async () => {
		const system = getSystem('glicko');
		const params: unknown = leagueParams(system);
		const replay = replayHistory(system, params, races);
		const perf = (id: string) => system.performance(replay.player(id)!.state, params);
		const three = await w.services.odds.odds(member, { players: 'Carol, Alice,Bob', system: 'glicko' });
		const want = fieldOdds(['#3', '#1', '#2'].map(perf));
		three.rows.forEach((row, i) => {
			expect(row.pWin).toBe(want.pWin[i]);
			expect(row.pTop3).toBe(want.pTop3[i]);
			expect(row.expectedPosition).toBe(want.expectedPosition[i]);
		});
		expect(three.headToHead).toBeUndefined();
		const two = await w.services.odds.odds(member, { players: 'Alice, Bob', system: 'glicko' });
		expect(two.headToHead).toBe(headToHead(perf('#1'), perf('#2')));
	});

	it('refuses fewer than two players, a player twice and an unknown player', async () => {
		await expect(w.services.odds.odds(member, { players: 'Alice' })).rejects.toMatchObject({ code: 'odds-field' });
		await expect(w.services.odds.odds(member, { players: 'Alice, alice' })).rejects.toMatchObject({
			code: 'odds-duplicate',
		});
		await expect(w.services.odds.odds(member, { players: 'Alice, Zed' })).rejects.toMatchObject({
			code: 'unknown-player',
		});
	});
});

describe('leaderboard service', () => {
	it('pages the standings with ranks', async () => {
		const page = await w.services.leaderboard.page(member, {});
		expect(page).toMatchObject({ page: 1, pages: 1, total: 3 });
		expect(page.rows.map((r) => r.rank)).toEqual([1, 2, 3]);
		expect(page.rows[0]!.name).toBe('Alice');
		await expect(w.services.leaderboard.page(member, { page: 2 })).rejects.toMatchObject({ code: 'bad-page' });
	});
});

describe('league service', () => {
	it('only Manage Server creates; names are unique; bad system and time zone are refused', async () => {
		await expect(w.services.leagues.create(member, { name: 'Other' })).rejects.toMatchObject({ code: 'not-organizer' });
		await expect(w.services.leagues.create(organizer, { name: 'cup' })).rejects.toThrow(/already exists/);
		await expect(w.services.leagues.create(organizer, { name: 'X', headline: 'elo' })).rejects.toMatchObject({
			code: 'unknown-system',
		});
		await expect(w.services.leagues.create(organizer, { name: 'X', timezone: 'Mars/Base' })).rejects.toMatchObject({
			code: 'bad-timezone',
		});
	});

	it('defaults to the only league; with several, lists them', async () => {
		expect((await w.services.leagues.resolve(member, undefined)).id).toBe(league);
		await w.services.leagues.create(organizer, { name: 'Night *Series*' });
		await expect(w.services.leagues.resolve(member, undefined)).rejects.toThrow(
			/2 leagues \(\*\*Cup\*\*, \*\*Night \\\*Series\\\*\*\*\): choose one/,
		);
		expect((await w.services.leagues.resolve(member, 'night *series*')).config.name).toBe('Night *Series*');
		await expect(w.services.leagues.resolve(member, 'Nope')).rejects.toMatchObject({ code: 'unknown-league' });
		await expect(w.services.leagues.resolve({ ...member, guildId: undefined }, undefined)).rejects.toMatchObject({
			code: 'guild-only',
		});
	});

	it('/rating and /odds without a league take the only league where every player asked for plays', async () => {
		await w.services.leagues.create(organizer, { name: 'Night' });
		await addRace(w, '1. Dora\n2. Eve\n3. Alice', 'Night');
		// Only in Cup, only in Night: found without the league option.
		expect((await w.services.ratings.rating(member, { player: 'Carol' })).league.config.name).toBe('Cup');
		expect((await w.services.ratings.rating(member, { player: 'dora' })).league.config.name).toBe('Night');
		expect((await w.services.odds.odds(member, { players: 'Dora, Eve' })).league.config.name).toBe('Night');
		expect((await w.services.ratings.rating(member, { player: 'Bob', compare: 'Carol' })).league.config.name).toBe(
			'Cup',
		);
		// In both leagues, in none, or a field across the two: the league option is still asked for.
		const which = { code: 'which-league' };
		await expect(w.services.ratings.rating(member, { player: 'Alice' })).rejects.toMatchObject(which);
		await expect(w.services.ratings.rating(member, { player: 'Zed' })).rejects.toMatchObject(which);
		await expect(w.services.odds.odds(member, { players: 'Bob, Dora' })).rejects.toMatchObject(which);
		await expect(w.services.ratings.rating(member, { player: 'Bob', compare: 'Dora' })).rejects.toMatchObject(which);
		// The caller's linked player, when no player is named; linked nowhere, that is what the refusal says.
		await expect(w.services.ratings.rating(member, {})).rejects.toMatchObject({
			code: 'not-linked',
			message: expect.stringMatching(
				/^Your Discord account is not linked to a player in any league of this server/,
			) as string,
		});
		await w.services.players.link(organizer, { player: 'Eve', user: member.userId, league: 'Night' });
		expect((await w.services.ratings.rating(member, {})).player.name).toBe('Eve');
	});

	it('config changes the headline (organizers only) and info counts players and races', async () => {
		await expect(w.services.leagues.configure(member, undefined, { headline: 'glicko' })).rejects.toMatchObject({
			code: 'not-organizer',
		});
		// A race logged without a date (as every bot race was before races were dated on confirmation): a yearly
		// reset cannot replay it, so it is refused before anything is written.
		const entries = [
			{ player: 'Alice', position: 1, status: 'finished' as const },
			{ player: 'Bob', position: 2, status: 'finished' as const },
		];
		await w.repo.appendEvent(league, { type: 'race-submitted', race: { entries }, by: organizer.userId });
		const before = await eventCount(w, league);
		await expect(w.services.leagues.configure(organizer, undefined, { reset: 'yearly' })).rejects.toMatchObject({
			code: 'reset-needs-dates',
		});
		expect(await eventCount(w, league)).toBe(before);
		const info = await w.services.leagues.configure(organizer, undefined, { headline: 'glicko' });
		expect(info.config).toMatchObject({ headline: 'glicko', name: 'Cup', guildId: GUILD });
		expect(await w.services.leagues.info(member, undefined)).toMatchObject({ players: 3, races: 4, voided: 0 });
	});
});

describe('player service', () => {
	it('rename keeps the old name as an alias; merge moves races; all organizer-only', async () => {
		const before = await eventCount(w, league);
		await expect(w.services.players.rename(member, { player: 'Bob', name: 'Robert' })).rejects.toMatchObject({
			code: 'not-organizer',
		});
		expect(await eventCount(w, league)).toBe(before);
		const renamed = await w.services.players.rename(organizer, { player: 'Bob', name: 'Robert' });
		expect(renamed.player).toMatchObject({ name: 'Robert', aliases: ['Bob'] });
		await expect(w.services.players.rename(organizer, { player: 'Robert', name: 'alice' })).rejects.toThrow(/taken/);
		await addRace(w, '1. Dan\n2. Alice');
		await addRace(w, '1. Eve\n2. Alice');
		const merged = await w.services.players.merge(organizer, { from: 'Dan', into: 'Eve' });
		expect(merged.player.aliases).toContain('Dan');
		await expect(w.services.players.merge(organizer, { from: 'Alice', into: 'Robert' })).rejects.toThrow(/both raced/);
	});
});

describe('player service: alias', () => {
	it('an alias (tidied as a name) finds the player in scoreboards and lookups; taken names are refused', async () => {
		await expect(w.services.players.alias(member, { player: 'Bob', alias: 'BobV8' })).rejects.toMatchObject({
			code: 'not-organizer',
		});
		const before = await eventCount(w, league);
		await expect(w.services.players.alias(organizer, { player: 'Bob', alias: 'alice' })).rejects.toMatchObject({
			code: 'bad-alias',
			message: '"alice" already names Alice.',
		});
		await expect(w.services.players.alias(organizer, { player: 'Bob', alias: '   ' })).rejects.toMatchObject({
			code: 'bad-alias',
		});
		expect(await eventCount(w, league)).toBe(before);
		const done = await w.services.players.alias(organizer, { player: 'Bob', alias: '  Bob   V8 ' });
		expect(done.player.aliases).toEqual(['Bob V8']);
		const preview = await w.services.races.submit(organizer, { text: '1. bob v8\n2. Alice' });
		expect(preview.lines.map((l) => [l.name, l.isNew])).toEqual([
			['Bob', false],
			['Alice', false],
		]);
		expect((await w.services.ratings.rating(member, { player: 'Bob V8' })).player.name).toBe('Bob');
	});
});

describe('player service: link and unlink', () => {
	it('a user linked to another player is told to unlink first; unlink frees them; nothing stored on a refusal', async () => {
		await w.services.players.link(organizer, { player: 'Alice', user: member.userId });
		const before = await eventCount(w, league);
		await expect(w.services.players.link(organizer, { player: 'Bob', user: member.userId })).rejects.toMatchObject({
			code: 'bad-link',
			message: 'That Discord user is already linked to **Alice**: unlink them first with /player unlink player:Alice.',
		});
		await expect(w.services.players.unlink(member, { player: 'Alice' })).rejects.toMatchObject({
			code: 'not-organizer',
		});
		await expect(w.services.players.unlink(organizer, { player: 'Bob' })).rejects.toMatchObject({
			code: 'not-linked',
			message: '**Bob** is not linked to a Discord user.',
		});
		expect(await eventCount(w, league)).toBe(before);
		const done = await w.services.players.unlink(organizer, { player: 'Alice' });
		expect(done).toMatchObject({ unlinked: member.userId, player: { name: 'Alice' } });
		expect(done.player.user).toBeUndefined();
		// /rating without a player now finds no linked player for the member; the link can go to Bob.
		await expect(w.services.ratings.rating(member, {})).rejects.toMatchObject({ code: 'not-linked' });
		await w.services.players.link(organizer, { player: 'Bob', user: member.userId });
		expect((await w.services.ratings.rating(member, {})).player.name).toBe('Bob');
	});
});

describe('autocomplete', () => {
	it('puts prefix matches before substring matches, at most 25', () => {
		const choices = ['Bobby', 'Alice', 'Rob', 'bob'].map((n) => ({ name: n, value: n }));
		expect(rankChoices('b', choices).map((c) => c.value)).toEqual(['Bobby', 'bob', 'Rob']);
		const many = Array.from({ length: 40 }, (_, i) => ({ name: `P${i}`, value: `P${i}` }));
		expect(rankChoices('', many)).toHaveLength(25);
	});

	it('offers players, leagues and races of the guild', async () => {
		expect((await w.services.autocomplete.players(member, undefined, 'ca')).map((c) => c.value)).toEqual(['Carol']);
		expect((await w.services.autocomplete.leagues(member, 'c')).map((c) => c.value)).toEqual(['Cup']);
		expect((await w.services.autocomplete.races(member, undefined, 'R')).map((c) => c.value)).toEqual([
			'R3',
			'R2',
			'R1',
		]);
		// Without a league option in a server of several: every league's players, named with their leagues.
		await w.services.leagues.create(organizer, { name: 'Night' });
		await addRace(w, '1. Dora\n2. Carol', 'Night');
		expect(await w.services.autocomplete.players(member, undefined, 'ca')).toEqual([
			{ name: 'Carol · Cup, Night', value: 'Carol' },
		]);
		expect((await w.services.autocomplete.players(member, undefined, 'd')).map((c) => c.name)).toEqual([
			'Dora · Night',
		]);
		expect(await w.services.autocomplete.players(member, 'Nope', 'd')).toEqual([]);
	});
});
