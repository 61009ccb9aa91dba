/**
 * `/league config`, `/player rename` and `/player merge` end to end (REAL discord.js client, fake Discord, memory
 * store; set-up shared with league-commands.test.ts in league-bot.ts). Each change is checked in the reply and in
 * the league's event log; each refusal is ephemeral, specific, pings nobody and leaves the log as it was.
 */
import { describe, expect, it } from 'vitest';
import { fmtRating } from '../../commands/shared.js';
import { ratingScale } from '../../src/formats/rating-scale.js';
import { replayHistory } from '../../src/league/replay.js';
import { getSystem } from '../../src/ratings/index.js';
import type { Race } from '../../src/ratings/types.js';
import {
	dataOf,
	visible,
	EPHEMERAL,
	flagsOf,
	MEMBER,
	mentionsOf,
	ORGANIZER,
	sub,
	text,
	useLeagueBot,
} from './league-bot.js';
import type { Json } from './fake-discord.js';
import { LEAGUE_DEFAULTS } from '../../src/league/league-defaults.js';
import { leagueParams } from '../support/league-params.js';

const bot = useLeagueBot();
const { run, expectRefusal, preview, click } = bot;
let leagueId = '';

const events = async () => bot.repo.readEvents(leagueId);
const eventCount = async () => (await events()).length;
const league = async () => (await bot.repo.getLeague(leagueId))!;

/** Confirms a race through /race submit and its Confirm button; returns the stored race id. */
async function confirmRace(results: string): Promise<string> {
	const p = await preview([text('results', results)]);
	const stored = await click(p.confirm!);
	const id = /Stored as \*\*(R\d+)\*\*/.exec(visible(stored[1]!))?.[1];
	if (!id) throw new Error(`not stored: ${visible(stored[1]!)}`);
	return id;
}

describe('/league config', () => {
	it('sets up a league with three races', async () => {
		await run('league', [sub('create', [text('name', 'Club'), text('system', 'glicko')])], ORGANIZER);
		leagueId = (await bot.repo.listLeagues(bot.fake.guildId))[0]!.id;
		expect(await confirmRace('1. Alice; 2. Bob; 3. Carol')).toBe('R1');
		expect(await confirmRace('1. Dave; 2. Carol')).toBe('R2');
		expect(await confirmRace('1. Bob; 2. Carol')).toBe('R3');
	});

	it('a member is refused ephemerally and nothing is stored', async () => {
		const before = await eventCount();
		await expectRefusal(
			'league',
			[sub('config', [text('system', 'endure')])],
			MEMBER,
			/^Only league organizers \(Manage Server permission\) can do this\.$/,
		);
		expect(await eventCount()).toBe(before);
		expect((await league()).config.headline).toBe('glicko');
	});

	it('an organizer changes the headline system and the time zone; /rating follows the new headline', async () => {
		const before = await eventCount();
		const reply = await run(
			'league',
			[sub('config', [text('system', 'endure'), text('timezone', 'Europe/Budapest')])],
			ORGANIZER,
		);
		expect(flagsOf(reply) & EPHEMERAL).toBe(0);
		expect(visible(reply)).toBe(
			[
				'Updated **Club**.',
				'Headline system: `endure`',
				'Time zone: Europe/Budapest',
				'Organizers: Manage Server',
				'Yearly reset: no',
				'Retirements: below the finishers, in their order',
				// Created with the new-league defaults (src/league/league-defaults.ts), shown as set.
				'Parameters of `folyami`: `k=20`',
				'Parameters of `glicko`: `c=2`',
				'Parameters of `endure`: `phi=0.999653`',
			].join('\n'),
		);
		const log = await events();
		expect(log).toHaveLength(before + 1);
		expect(log.at(-1)).toMatchObject({
			type: 'league-configured',
			by: ORGANIZER.userId,
			config: { headline: 'endure', timezone: 'Europe/Budapest' },
		});
		const endure = visible(await run('rating', [text('player', 'Alice')]));
		expect(endure).toMatch(/^Club · endure\nAlice\n/);
		// On the points scale, as `pitwall replay --scale shown` prints it (test/cli/main.test.ts).
		const system = getSystem('endure');
		const stored = (await bot.repo.loadState(leagueId)).ratedRaces().map((r) => r.race);
		const alice = replayHistory(system, leagueParams(system), stored)
			.standings()
			.find((s) => s.player === '#1')!;
		expect(endure).toContain(`Rating\n${fmtRating(ratingScale('endure', leagueParams(system)).rating(alice.rating))}`);
		expect(endure).not.toMatch(/\nk\n|Uncertainty/); // the base form's k is the same for everyone: not shown
		// endure on the points scale, its raw R in the footer (rating-scale.ts).
		expect(endure).toMatch(/points = 1500 \+ R × 400\/ln 10 · raw R -?\d\.\d{4}, k 0\.3600$/);
		// Back to glicko for the player tests below.
		await run('league', [sub('config', [text('system', 'glicko')])], ORGANIZER);
		expect((await league()).config.headline).toBe('glicko');
	});

	it('an organizer sets rating parameters; /rating follows them; bad ones are refused and nothing is stored', async () => {
		const before = await eventCount();
		// The league was created with the new-league defaults as explicit parameters.
		expect((await league()).config.params).toEqual(LEAGUE_DEFAULTS);
		const reply = await run(
			'league',
			[sub('config', [text('parameters', 'glicko.c=2.5, glicko.initialRd=120')])],
			ORGANIZER,
		);
		expect(visible(reply)).toContain('Parameters of `glicko`: `c=2.5`, `initialRd=120`');
		expect((await events()).at(-1)).toMatchObject({
			type: 'league-configured',
			config: { params: { glicko: { c: '2.5', initialRd: '120' } } },
		});
		expect((await league()).config.params).toEqual({ ...LEAGUE_DEFAULTS, glicko: { c: '2.5', initialRd: '120' } });
		const withParams = before + 1;
		await expectRefusal(
			'league',
			[sub('config', [text('parameters', 'glicko.initialRd=-5')])],
			ORGANIZER,
			/initialRd must be at least/,
		);
		await expectRefusal(
			'league',
			[sub('config', [text('parameters', 'glicko.nope=1')])],
			ORGANIZER,
			/unknown parameter "nope"/,
		);
		await expectRefusal('league', [sub('config', [text('parameters', 'c=2')])], ORGANIZER, /is not system\.name=value/);
		expect(await eventCount()).toBe(withParams);
		// `=default` drops an override: the reference default, not the new-league one (glicko c back to 12.8 per day).
		await run('league', [sub('config', [text('parameters', 'glicko.c=default glicko.initialRd=default')])], ORGANIZER);
		expect(getSystem('glicko').params((await league()).config.params.glicko)).toEqual(getSystem('glicko').params());
		// Back to the league's creation parameters for the tests below.
		await run('league', [sub('config', [text('parameters', `glicko.c=${LEAGUE_DEFAULTS.glicko!.c}`)])], ORGANIZER);
		expect(getSystem('glicko').params((await league()).config.params.glicko)).toEqual(
			leagueParams(getSystem('glicko')),
		);
	});

	it('a bad time zone gets a specific message; nothing is stored', async () => {
		const before = await eventCount();
		await expectRefusal(
			'league',
			[sub('config', [text('timezone', 'Mars/Olympus_Mons')])],
			ORGANIZER,
			// The typed value is shown markdown-escaped.
			/^"Mars\/Olympus\\_Mons" is not an IANA time zone \(e\.g\. Europe\/Budapest, UTC\)\.$/,
		);
		expect(await eventCount()).toBe(before);
		expect((await league()).config.timezone).toBe('Europe/Budapest');
	});

	it('a yearly reset while races have no date names the race; nothing is stored', async () => {
		// Races confirmed in the bot are dated; an undated one comes from a log written before they were.
		const entries = [
			{ player: 'Alice', position: 1, status: 'finished' as const },
			{ player: 'Bob', position: 2, status: 'finished' as const },
		];
		await bot.repo.appendEvent(leagueId, { type: 'race-submitted', race: { entries }, by: ORGANIZER.userId ?? '' });
		const before = await eventCount();
		await expectRefusal(
			'league',
			[sub('config', [text('reset', 'yearly')])],
			ORGANIZER,
			/^A yearly reset needs a date on every race, and R4 has none: edit the undated races first\.$/,
		);
		expect(await eventCount()).toBe(before);
		expect((await league()).config.reset).toBeUndefined();
		await bot.repo.appendEvent(leagueId, {
			type: 'race-voided',
			race: 'R4',
			reason: 'test set-up',
			by: ORGANIZER.userId ?? '',
		});
	});
});

describe('/player alias', () => {
	it('a scoreboard name for a player: stored once, answered to everyone without pings, a taken name refused', async () => {
		const before = await eventCount();
		const reply = await run(
			'player',
			[sub('alias', [text('player', 'Alice'), text('alias', 'Al1ce @everyone')])],
			ORGANIZER,
		);
		expect(visible(reply)).toBe('Scoreboards may now name **Alice** “Al1ce @\u200Beveryone” too.');
		expect(flagsOf(reply) & EPHEMERAL).toBe(0);
		expect(mentionsOf(reply)).toEqual({ parse: [] });
		expect((await events()).at(-1)).toMatchObject({ type: 'alias-added', alias: 'Al1ce @everyone' });
		await expectRefusal(
			'player',
			[sub('alias', [text('player', 'Alice'), text('alias', 'bob')])],
			ORGANIZER,
			/^"bob" already names Bob\.$/,
		);
		expect(await eventCount()).toBe(before + 1);
	});
});

describe('/player rename', () => {
	it('a member is refused; nothing is stored', async () => {
		const before = await eventCount();
		await expectRefusal(
			'player',
			[sub('rename', [text('player', 'Bob'), text('name', 'Robert')])],
			MEMBER,
			/^Only league organizers/,
		);
		expect(await eventCount()).toBe(before);
	});

	it('renames; /rating finds the new name, and the old one as an alias', async () => {
		const before = await eventCount();
		const reply = await run('player', [sub('rename', [text('player', 'Bob'), text('name', 'Robert')])], ORGANIZER);
		expect(visible(reply)).toBe('Renamed to **Robert** (aliases: Bob).');
		expect(flagsOf(reply) & EPHEMERAL).toBe(0);
		expect(mentionsOf(reply)).toEqual({ parse: [] });
		const log = await events();
		expect(log).toHaveLength(before + 1);
		expect(log.at(-1)).toMatchObject({ type: 'player-renamed', player: '#2', name: 'Robert', by: ORGANIZER.userId });
		const byNew = visible(await run('rating', [text('player', 'Robert')]));
		expect(byNew).toMatch(/^Club · glicko\nRobert\n/);
		expect(byNew).toContain('Races\n2');
		const byOld = visible(await run('rating', [text('player', 'bob')]));
		expect(byOld).toBe(byNew);
	});

	it('a name taken by another player (or alias) is refused; nothing is stored', async () => {
		const before = await eventCount();
		await expectRefusal(
			'player',
			[sub('rename', [text('player', 'Carol'), text('name', 'alice')])],
			ORGANIZER,
			/^The name "alice" is taken by Alice\.$/,
		);
		await expectRefusal(
			'player',
			[sub('rename', [text('player', 'Carol'), text('name', 'BOB')])],
			ORGANIZER,
			/^The name "BOB" is taken by Robert\.$/,
		);
		expect(await eventCount()).toBe(before);
		expect(visible(await run('rating', [text('player', 'Carol')]))).toMatch(/^Club · glicko\nCarol\n/);
	});
});

describe('names follow the scoreboard rules', () => {
	const refusedNames: [string, string, RegExp][] = [
		['a newline', 'Caro\nline', /contains the character U\+000A: control and invisible formatting characters/],
		['a right-to-left override', 'Caro\u202Eline', /contains the character U\+202E: control and invisible/],
		['a zero-width space', 'Caro\u200Bline', /contains the character U\+200B: control and invisible/],
		['a left-to-right mark', 'Caro\u200Eline', /contains the character U\+200E: control and invisible/],
		['52 characters', 'C'.repeat(52), /is 52 characters long: at most 32/],
		['a player id', '#1', /starts with #, as player ids do/],
	];

	it.each(refusedNames)('/player rename refuses %s, ephemerally; nothing is stored', async (_what, name, message) => {
		const before = await eventCount();
		await expectRefusal('player', [sub('rename', [text('player', 'Carol'), text('name', name)])], ORGANIZER, message);
		expect(await eventCount()).toBe(before);
		expect(visible(await run('rating', [text('player', 'Carol')]))).toMatch(/^Club · glicko\nCarol\n/);
	});

	it.each(refusedNames)('/league create refuses %s, ephemerally; no league is made', async (_what, name, message) => {
		const before = await bot.repo.listLeagues(bot.fake.guildId);
		await expectRefusal('league', [sub('create', [text('name', name)])], ORGANIZER, message);
		expect(await bot.repo.listLeagues(bot.fake.guildId)).toEqual(before);
	});

	it('a 32-character name is taken; surrounding and repeated spaces are tidied as on a scoreboard', async () => {
		const name = `Caro${'l'.repeat(28)}`;
		const reply = await run(
			'player',
			[sub('rename', [text('player', 'Carol'), text('name', `  ${name} `)])],
			ORGANIZER,
		);
		expect(visible(reply)).toBe(`Renamed to **${name}** (aliases: Carol).`);
		await run('player', [sub('rename', [text('player', name), text('name', 'Carol  Ann')])], ORGANIZER);
		expect((await events()).at(-1)).toMatchObject({ type: 'player-renamed', name: 'Carol Ann' });
		await run('player', [sub('rename', [text('player', 'Carol Ann'), text('name', 'Carol')])], ORGANIZER);
	});
});

describe('/player merge', () => {
	it('refused with the race named when both raced together; nothing is stored', async () => {
		const before = await eventCount();
		await expectRefusal(
			'player',
			[sub('merge', [text('from', 'Carol'), text('into', 'Robert')])],
			ORGANIZER,
			/^Cannot merge Carol into Robert: both raced in R1, R3\.$/,
		);
		await expectRefusal(
			'player',
			[sub('merge', [text('from', 'Dave'), text('into', 'Alice')])],
			MEMBER,
			/^Only league organizers/,
		);
		expect(await eventCount()).toBe(before);
	});

	it('two players’ races become one, with ratings replayed: previewed to the organizer, stored on Confirm', async () => {
		const before = await eventCount();
		const started = performance.now();
		const previewed = await run('player', [sub('merge', [text('from', 'Dave'), text('into', 'Alice')])], ORGANIZER);
		expect(previewed.deferred).toBe(true);
		expect((previewed as unknown as { flagsOfDefer: number }).flagsOfDefer & EPHEMERAL).toBe(EPHEMERAL);
		expect(performance.now() - started).toBeLessThan(3000);
		const shown = visible(previewed);
		expect(shown).toMatch(/^Club\nMerge preview: Dave into Alice\nMerged away: \*\*Dave\*\*: 1 race, the last R2/);
		expect(shown).toContain('**A merge cannot be undone.**');
		expect(shown).toMatch(/\nRatings on \d{4}-\d\d-\d\d under `glicko`\n/);
		expect(shown).toMatch(/\*\*Dave\*\* [\d.]+ → merged into Alice · #\d → none/);
		expect(mentionsOf(previewed)).toEqual({ parse: [] });
		expect(await eventCount()).toBe(before);
		const buttons = ((dataOf(previewed)['components'] as Json[])[0]!['components'] as Json[]).map((c) =>
			String(c['custom_id']),
		);
		const handle = bot.fake.clickButton(
			buttons.find((id) => id.startsWith('player-merge:confirm:'))!,
			ORGANIZER,
		);
		const answers = [await handle.next(), await handle.next(), await handle.next()];
		expect(visible(answers[1]!)).toBe('Merged **Dave** into **Alice** in **Club**; ratings were replayed.');
		expect(visible(answers[2]!)).toBe('Merged **Dave** into **Alice** in **Club**; ratings were replayed.');
		expect(flagsOf(answers[2]!) & EPHEMERAL).toBe(0);
		expect(mentionsOf(answers[2]!)).toEqual({ parse: [] });
		const log = await events();
		expect(log).toHaveLength(before + 1);
		expect(log.at(-1)).toMatchObject({ type: 'players-merged', from: '#4', into: '#1', by: ORGANIZER.userId });
		// Pressed again: nothing merged twice.
		const again = bot.fake.clickButton(
			buttons.find((id) => id.startsWith('player-merge:confirm:'))!,
			ORGANIZER,
		);
		await again.next();
		expect(visible(await again.next())).toBe(
			'Already merged: **Dave** into **Alice** in **Club**; nothing was merged twice.',
		);
		expect(await events()).toHaveLength(before + 1);

		// The rating module on the merged history: Dave's R2 is now Alice's.
		const merged: Race[] = [
			{
				id: 'R1',
				entries: [
					{ player: '#1', position: 1, status: 'finished' },
					{ player: '#2', position: 2, status: 'finished' },
					{ player: '#3', position: 3, status: 'finished' },
				],
			},
			{
				id: 'R2',
				entries: [
					{ player: '#1', position: 1, status: 'finished' },
					{ player: '#3', position: 2, status: 'finished' },
				],
			},
			{
				id: 'R3',
				entries: [
					{ player: '#2', position: 1, status: 'finished' },
					{ player: '#3', position: 2, status: 'finished' },
				],
			},
		];
		const glicko = getSystem('glicko');
		const standings = replayHistory(glicko, leagueParams(glicko), merged).standings();
		const alice = standings.find((s) => s.player === '#1')!;
		const body = visible(await run('rating', [text('player', 'Alice')]));
		expect(body).toMatch(/^Club · glicko\nAlice\n/);
		expect(body).toContain('Races\n2');
		expect(body).toContain(`Rating\n${fmtRating(alice.rating)}`);
		expect(body).toContain(`Rank\n${standings.indexOf(alice) + 1} of 3`);
		// The merged-away name resolves to the player kept.
		expect(visible(await run('rating', [text('player', 'Dave')]))).toBe(body);
		expect(visible(await run('league', [sub('info', [])]))).toContain('Players: 3 · Races: 3');
	});
});
