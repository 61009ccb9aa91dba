/**
 * The league commands end to end: the REAL discord.js client against the fake Discord, the real router, services,
 * repository and memory store. A league is created, races are submitted through /race submit and its Confirm
 * button, then /rating and /odds are checked against the rating module's own numbers; every refusal is ephemeral,
 * specific, pings nobody and stores nothing.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { fmtPct, fmtPosition, fmtRating } from '../../commands/shared.js';
import { deployCommands } from '../../src/discord/deploy-commands.js';
import { replayHistory } from '../../src/league/replay.js';
import { getSystem } from '../../src/ratings/index.js';
import { fieldOdds, headToHead } from '../../src/ratings/odds/odds.js';
import type { Race } from '../../src/ratings/types.js';
import type { RawOption } from './fake-discord-wire.js';
import {
	ATTACHMENT,
	embedsOf,
	visible,
	EPHEMERAL,
	flagsOf,
	MEMBER,
	mentionsOf,
	ORGANIZER,
	STRING,
	sub,
	text,
	useLeagueBot,
	dataOf,
} from './league-bot.js';
import type { Actor, Json } from './fake-discord.js';

const bot = useLeagueBot();
const { run, expectRefusal, preview, click } = bot;
let leagueId = '';

async function eventCount(): Promise<number> {
	return (await bot.repo.readEvents(leagueId)).length;
}

/** The two confirmed races, as the rating module sees them (player ids in order of first appearance). */
const races: Race[] = [
	{
		id: 'R1',
		entries: [
			{ player: '#1', position: 1, time: 60, status: 'finished' },
			{ player: '#2', position: 2, time: 61, status: 'finished' },
			{ player: '#3', position: 3, status: 'DNF' },
		],
	},
	{
		id: 'R2',
		entries: [
			{ player: '#2', position: 1, status: 'finished' },
			{ player: '#3', position: 2, status: 'finished' },
			{ player: '#1', position: 3, status: 'finished' },
		],
	},
];

describe('league commands end to end', () => {
	it('registers every command', async () => {
		await deployCommands(
			{
				DISCORD_TOKEN: bot.fake.token,
				DISCORD_APP_ID: bot.fake.appId,
				DEV_GUILD_ID: bot.fake.guildId,
				DISCORD_API_URL: bot.fake.apiUrl,
			},
			commands.map((c) => c.data),
		);
		const names = bot.fake.commandRegistrations.at(-1)?.body.map((c) => c['name']);
		expect(names).toEqual(commands.map((c) => c.data.name));
		expect(names).toEqual([
			'about',
			'league',
			'race',
			'rating',
			'odds',
			'forecast',
			'leaderboard',
			'standings',
			'season',
			'player',
		]);
	});

	it('from a DM: league commands are registered for servers only, and refused if one arrives; /about answers', async () => {
		const body = bot.fake.commandRegistrations.at(-1)!.body;
		expect(body.filter((c) => c['contexts'] === undefined).map((c) => c['name'])).toEqual(['about']);
		const DM: Actor = { ...MEMBER, dm: true };
		const started = performance.now();
		await expectRefusal('rating', [], DM, /^This can only be used in a server\.$/);
		await expectRefusal('race', [sub('submit', [text('results', '1. Ann; 2. Bob')])], DM, /only be used in a server/);
		expect(performance.now() - started).toBeLessThan(3000);
		const about = await run('about', [], DM);
		expect(visible(about)).toMatch(/^\*\*pitwall \d+\.\d+\.\d+\*\*/);
		expect(mentionsOf(about)).toEqual({ parse: [] });
	});

	it('/league create: refused without Manage Server, created with it', async () => {
		await expectRefusal('league', [sub('create', [text('name', 'Sunday Cup')])], MEMBER, /Only league organizers/);
		expect(await bot.repo.listLeagues(bot.fake.guildId)).toEqual([]);
		const reply = await run(
			'league',
			[sub('create', [text('name', 'Sunday Cup'), text('system', 'glicko')])],
			ORGANIZER,
		);
		expect(visible(reply)).toContain('Created league **Sunday Cup**');
		expect(visible(reply)).toContain('Headline system: `glicko`');
		leagueId = (await bot.repo.listLeagues(bot.fake.guildId))[0]!.id;
	});

	it('/race submit shows a preview; nothing is stored until Confirm; a member cannot submit or confirm', async () => {
		await expectRefusal(
			'race',
			[sub('submit', [text('results', '1. Alice; 2. Bob')])],
			MEMBER,
			/Only league organizers/,
		);
		const p = await preview([text('results', '1. Alice 1:00.000; 2. Bob 1:01.000; Carol DNF'), text('name', 'Opener')]);
		const [shownPreview] = embedsOf(p.edit);
		expect(shownPreview).toMatchObject({ title: 'Race preview: Opener', author: { name: 'Sunday Cup' } });
		expect(String(shownPreview!['footer'] && (shownPreview!['footer'] as Json)['text'])).toContain('press Confirm');
		expect(p.text).toMatch(
			/1\. \*\*Alice\*\* \*\(new player\)\* 1:00\.000 \(exp\. 2\.00\) — 1500\.0 → \d+\.\d \(\+\d+\.\d\)/,
		);
		expect(p.text).toContain('3 new players will be created.');
		expect(await eventCount()).toBe(1);
		// A member clicking Confirm is refused in an ephemeral follow-up; nothing stored.
		const refused = await click(p.confirm!, MEMBER);
		expect(refused[0]).toMatchObject({ kind: 'callback', type: 6 });
		expect(visible(refused[1]!)).toMatch(/^Only league organizers/);
		expect(flagsOf(refused[1]!) & EPHEMERAL).toBe(EPHEMERAL);
		expect(await eventCount()).toBe(1);
		const stored = await click(p.confirm!);
		expect(visible(stored[1]!)).toContain('Stored as **R1** in **Sunday Cup**.');
		expect(visible(stored[1]!)).toContain('New players: Alice, Bob, Carol.');
		expect(stored[2]!.kind).toBe('followup');
		expect(visible(stored[2]!)).toMatch(/^New race in \*\*Sunday Cup\*\*: \*\*R1\*\*\.\nSunday Cup\nR1: Opener\n/);
		expect(flagsOf(stored[2]!) & EPHEMERAL).toBe(0);
		expect(await eventCount()).toBe(2);
		// A second press stores nothing and says where the race is.
		const again = await click(p.confirm!);
		expect(visible(again[1]!)).toBe('Already stored as **R1** in **Sunday Cup**: nothing was stored twice.');
		expect(await eventCount()).toBe(2);
	});

	it('Cancel stores nothing', async () => {
		const p = await preview([text('results', '1. Bob; 2. Carol; 3. Alice')]);
		const events = await click(p.cancel!);
		expect(visible(events[1]!)).toBe('Cancelled: nothing was stored.');
		expect(await eventCount()).toBe(2);
		const second = await preview([text('results', '1. Bob; 2. Carol; 3. Alice')]);
		await click(second.confirm!);
		expect(await eventCount()).toBe(3);
	});

	it('/rating shows the rating module’s own numbers', async () => {
		const glicko = getSystem('glicko');
		const last = new Map<string, { before: number; after: number }>();
		const replay = replayHistory(glicko, glicko.params(), races, {}, (o) => {
			for (const c of o.changes) last.set(c.player, { before: c.before.rating, after: c.after.rating });
		});
		const standings = replay.standings();
		const bob = standings.find((s) => s.player === '#2')!;
		const reply = await run('rating', [text('player', 'bob')]);
		const body = visible(reply);
		expect(flagsOf(reply) & EPHEMERAL).toBe(0);
		const [embed] = embedsOf(reply);
		expect(embed).toMatchObject({ title: 'Bob', author: { name: 'Sunday Cup · glicko' } });
		expect(embed!['fields']).toEqual(
			expect.arrayContaining([
				{ name: 'Rating', value: fmtRating(bob.rating), inline: true },
				{ name: 'RD', value: fmtRating(bob.uncertainty!), inline: true },
				{ name: 'Rank', value: `${standings.indexOf(bob) + 1} of 3`, inline: true },
				{ name: 'Races', value: '2', inline: true },
			]),
		);
		expect(embed!['color']).toBe(bob.provisional ? 0x95a5a6 : [0xf1c40f, 0xbdc3c7, 0xcd7f32][standings.indexOf(bob)]);
		expect(body).toContain(bob.provisional ? '**Provisional**: its RD is above' : 'Established.');
		expect(body).toMatch(/as of \d{4}-\d\d-\d\d$/);
		const change = last.get('#2')!;
		expect(body).toMatch(
			new RegExp(`In R2 \\(\\d{4}-\\d\\d-\\d\\d\\): .* · ${fmtRating(change.before)} → ${fmtRating(change.after)}`),
		);
	});

	it('/odds shows P(win), P(top 3), expected position and the head-to-head from the odds module', async () => {
		const glicko = getSystem('glicko');
		const params: unknown = glicko.params();
		const replay = replayHistory(glicko, params, races);
		const alice = replay.standings().find((row) => row.player === '#1')!;
		const perf = (id: string) => glicko.performance(replay.player(id)!.state, params);
		const odds = fieldOdds([perf('#1'), perf('#2')]);
		const body = visible(await run('odds', [text('players', 'Alice, Bob')]));
		expect(body).toContain(
			`**Alice** (${fmtRating(alice.rating)}): win ${fmtPct(odds.pWin[0]!)} · expected position ${fmtPosition(odds.expectedPosition[0]!)}`,
		);
		expect(body).toContain(`win ${fmtPct(odds.pWin[1]!)}`);
		expect(body).toContain(
			`**Alice** finishes ahead of **Bob** with probability ${fmtPct(headToHead(perf('#1'), perf('#2')))}`,
		);
		const three = fieldOdds([perf('#1'), perf('#2'), perf('#3')]);
		const body3 = visible(await run('odds', [text('players', 'Alice,Bob,Carol')]));
		expect(body3).toContain(`expected position ${fmtPosition(three.expectedPosition[2]!)}`);
		expect(body3).not.toContain('Head to head');
		expect(body3).not.toContain('top 3'); // a field of three: everyone is in the top 3
		// Favourites first.
		const order = [...body3.matchAll(/^\*\*(\w+)\*\* \(/gm)].map((m) => m[1]);
		const byWin = ['Alice', 'Bob', 'Carol'].map((name, i) => ({ name, p: three.pWin[i]! })).sort((a, b) => b.p - a.p);
		expect(order).toEqual(byWin.map((x) => x.name));
	});

	it('/leaderboard, /race show, /race list, /league info', async () => {
		const board = visible(await run('leaderboard', [text('page', 1)]));
		expect(board).toMatch(/^Sunday Cup · glicko\nLeaderboard\n1\. \*\*\w+\*\*/);
		expect(board).toMatch(/as of \d{4}-\d\d-\d\d · page 1\/1 · 3 players · † provisional$/);
		const show = visible(await run('race', [sub('show', [text('race', 'r1')])]));
		expect(show).toMatch(/^Sunday Cup\nR1: Opener\n\d{4}-\d\d-\d\d · submitted by <@\d+>/);
		expect(show).toContain('DNF Carol');
		const list = visible(await run('race', [sub('list', [])]));
		expect(list).toContain('2 in all');
		const info = visible(await run('league', [sub('info', [])]));
		expect(info).toContain('Players: 3 · Races: 2');
	});

	it('/league config min-races: idle-days: filters /leaderboard, says so in its footer and in /rating', async () => {
		const set = (options: RawOption[]) => run('league', [sub('config', options)], ORGANIZER);
		expect(visible(await set([text('min-races', 2), text('idle-days', 180)]))).toContain(
			'Leaderboard: players with at least 2 races, raced in the last 180 days',
		);
		const board = visible(await run('leaderboard', []));
		expect(board).toMatch(
			/· 3 players · players with at least 2 races, raced in the last 180 days; 0 hidden · † provisional$/,
		);
		await set([text('min-races', 3)]);
		expect(visible(await run('leaderboard', []))).toBe(
			'No player in **Sunday Cup** is on the leaderboard: it shows players with at least 3 races, raced in the last 180 days, and 3 rated players are hidden.',
		);
		const rating = visible(await run('rating', [text('player', 'Bob')]));
		expect(rating).toContain(
			'Not on the leaderboard: the leaderboard shows players with at least 3 races, and this player has 2.',
		);
		expect(rating).toContain('not on the leaderboard');
		await set([text('min-races', 0), text('idle-days', 0)]);
		expect(visible(await run('league', [sub('info', [])]))).not.toContain('Leaderboard:');
	});

	it('/player link then /rating without a player shows the caller’s own', async () => {
		await expectRefusal('rating', [], MEMBER, /not linked to a player in Sunday Cup/);
		await expectRefusal('player', [sub('link', [text('player', 'Carol')])], MEMBER, /Only league organizers/);
		const linked = visible(await run('player', [sub('link', [text('player', 'Carol')])], ORGANIZER));
		expect(linked).toBe(`Linked **Carol** to <@${ORGANIZER.userId}>.`);
		expect(visible(await run('rating', [], ORGANIZER))).toMatch(/^Sunday Cup · glicko\nCarol\n/);
		// Another member, chosen with the user option (Discord resolves it in the interaction).
		const other = visible(
			await run(
				'player',
				[sub('link', [text('player', 'Bob'), { name: 'user', type: 6, value: MEMBER.userId! }])],
				ORGANIZER,
			),
		);
		expect(other).toBe(`Linked **Bob** to <@${MEMBER.userId}>.`);
		expect(visible(await run('rating', [], MEMBER))).toMatch(/^Sunday Cup · glicko\nBob\n/);
		// A member linked to the wrong player: unlink, then link again (the mention in the answer pings nobody).
		await expectRefusal(
			'player',
			[sub('link', [text('player', 'Alice'), { name: 'user', type: 6, value: MEMBER.userId! }])],
			ORGANIZER,
			/^That Discord user is already linked to \*\*Bob\*\*: unlink them first with \/player unlink player:Bob\.$/,
		);
		const unlinked = await run('player', [sub('unlink', [text('player', 'Bob')])], ORGANIZER);
		expect(visible(unlinked)).toBe(`Unlinked **Bob** from <@${MEMBER.userId}>.`);
		expect(mentionsOf(unlinked)).toEqual({ parse: [] });
		await expectRefusal('rating', [], MEMBER, /not linked to a player in Sunday Cup/);
		await run(
			'player',
			[sub('link', [text('player', 'Bob'), { name: 'user', type: 6, value: MEMBER.userId! }])],
			ORGANIZER,
		);
	});

	it('/race void and /race edit: organizers only, with the reason kept', async () => {
		await expectRefusal(
			'race',
			[sub('void', [text('race', 'R2'), text('reason', 'x')])],
			MEMBER,
			/Only league organizers/,
		);
		const before = await eventCount();
		const editOptions = [
			sub('edit', [
				text('race', 'R1'),
				text('results', '1. Bob; 2. Alice; 3. Carol'),
				text('reason', 'typo @everyone'),
			]),
		];
		// A correction is previewed, only to its author, and stored only on Confirm.
		const previewed = await run('race', editOptions, ORGANIZER);
		expect(previewed.deferred).toBe(true);
		expect((previewed as unknown as { flagsOfDefer: number }).flagsOfDefer & EPHEMERAL).toBe(EPHEMERAL);
		expect(visible(previewed)).toMatch(/^Sunday Cup\nCorrection preview: R1\nReason: typo @\u200Beveryone/);
		expect(visible(previewed)).toMatch(
			/\nNow\n1\. Alice[^\n]*\n2\. Bob[^\n]*\nDNF Carol\nAfter the correction\n1\. Bob\n2\. Alice\n3\. Carol/,
		);
		// What confirming does to today's ratings (the headline replayed on a copy); /rating shows the same after it.
		const effect =
			/\nRatings on \d{4}-\d\d-\d\d under `glicko`\n\*\*Bob\*\* [\d.]+ → ([\d.]+) \(\+[\d.]+\) · #1\n/.exec(
				visible(previewed),
			);
		expect(effect).not.toBeNull();
		const bobAfter = effect![1]!;
		expect(await eventCount()).toBe(before);
		const ids = ((dataOf(previewed)['components'] as Json[])[0]!['components'] as Json[]).map((c) =>
			String(c['custom_id']),
		);
		const cancelled = await click(ids.find((id) => id.startsWith('race-edit:cancel:'))!);
		expect(visible(cancelled[1]!)).toBe('Cancelled: nothing was changed.');
		expect(await eventCount()).toBe(before);
		// A date and a name alone are corrected the same way, previewed first.
		const redated = visible(
			await run(
				'race',
				[
					sub('edit', [
						text('race', 'R1'),
						text('reason', 'wrong day'),
						text('date', '2026-01-05'),
						text('name', 'Round 1'),
					]),
				],
				ORGANIZER,
			),
		);
		expect(redated).toMatch(/\nReason: wrong day\nDate: \d{4}-\d\d-\d\d → 2026-01-05\nName: “Opener” → “Round 1”\n/);
		expect(await eventCount()).toBe(before);
		const again = await run('race', editOptions, ORGANIZER);
		const confirm = ((dataOf(again)['components'] as Json[])[0]!['components'] as Json[])
			.map((c) => String(c['custom_id']))
			.find((id) => id.startsWith('race-edit:confirm:'))!;
		const handle = bot.fake.clickButton(confirm, ORGANIZER);
		const answers = [await handle.next(), await handle.next(), await handle.next()];
		expect(visible(answers[1]!)).toBe('Edited **R1** in **Sunday Cup**. Ratings were replayed from R1 on.');
		const edited = visible(answers[2]!);
		expect(flagsOf(answers[2]!) & EPHEMERAL).toBe(0);
		expect(edited).toContain('Edited.');
		expect(edited).toContain('typo @\u200Beveryone');
		expect(visible(await run('rating', [text('player', 'Bob')], MEMBER))).toContain(`\nRating\n${bobAfter}\n`);
		const voided = visible(
			await run('race', [sub('void', [text('race', 'R2'), text('reason', 'duplicate')])], ORGANIZER),
		);
		expect(voided).toContain('**voided**');
		expect(await eventCount()).toBe(before + 2);
	});

	it('autocomplete offers players, leagues and races', async () => {
		const players = await bot.fake
			.sendAutocomplete('rating', [{ name: 'player', type: STRING, value: 'b', focused: true }])
			.next();
		expect(players).toMatchObject({ kind: 'callback', type: 8, data: { choices: [{ name: 'Bob', value: 'Bob' }] } });
		const leagues = await bot.fake
			.sendAutocomplete('leaderboard', [{ name: 'league', type: STRING, value: 'sun', focused: true }])
			.next();
		expect(leagues).toMatchObject({ data: { choices: [{ name: 'Sunday Cup', value: 'Sunday Cup' }] } });
		const racesChoice = await bot.fake
			.sendAutocomplete('race', [sub('show', [{ name: 'race', type: STRING, value: 'R1', focused: true }])])
			.next();
		expect(racesChoice).toMatchObject({ data: { choices: [expect.objectContaining({ value: 'R1' })] } });
		const field = await bot.fake
			.sendAutocomplete('odds', [{ name: 'players', type: STRING, value: 'Alice, ca', focused: true }])
			.next();
		expect(field).toMatchObject({ data: { choices: [{ name: 'Alice, Carol', value: 'Alice, Carol' }] } });
	});
});

describe('bad inputs: each answered ephemerally, nothing stored', () => {
	it('a malformed one-line scoreboard lists its problems by racer', async () => {
		const before = await eventCount();
		await expectRefusal(
			'race',
			[sub('submit', [text('results', '1. Alice; 1. Bob; 0. Carol')])],
			ORGANIZER,
			/scoreboard has problems, nothing was stored:\nracer \d+:/,
		);
		expect(await eventCount()).toBe(before);
	});

	it('the same player twice', async () => {
		const before = await eventCount();
		await expectRefusal(
			'race',
			[sub('submit', [text('results', '1. Alice; 2. alice')])],
			ORGANIZER,
			/racer 2: "alice" is entered twice: on racer 1 as "Alice"/,
		);
		expect(await eventCount()).toBe(before);
	});

	it('an unknown player in /rating, with a suggestion', async () => {
		await expectRefusal(
			'rating',
			[text('player', 'Alcie')],
			MEMBER,
			/There is no player "Alcie" in Sunday Cup\. Did you mean \*\*Alice\*\*\?/,
		);
	});

	it('a surname alone in /odds, misspelt, is refused with the full name suggested', async () => {
		const stored = await preview([text('results', '1. Max Verstappen; 2. Lewis Hamilton')]);
		await click(stored.confirm!);
		await expectRefusal(
			'odds',
			[text('players', 'Verstapen, Lewis Hamilton')],
			MEMBER,
			/There is no player "Verstapen" in Sunday Cup\. Did you mean \*\*Max Verstappen\*\*\?/,
		);
	});

	it('an unknown race', async () => {
		await expectRefusal('race', [sub('show', [text('race', 'R99')])], MEMBER, /There is no race "R99" in Sunday Cup/);
	});

	it('an oversized file is refused before it is downloaded', async () => {
		const before = await eventCount();
		const big = bot.fake.addAttachment('big.csv', `player,position\n${'x,1\n'.repeat(2_200_000)}`, 'text/csv');
		await expectRefusal(
			'race',
			[sub('submit', [text('results', '-'), { name: 'file', type: ATTACHMENT, value: String(big['id']) }])],
			ORGANIZER,
			/The file is 8\.4 MiB: at most 8 MiB\. Nothing was stored\./,
		);
		expect(bot.fake.requests.some((r) => r.path.includes(String(big['id'])))).toBe(false);
		expect(await eventCount()).toBe(before);
	});

	it('a file is read by its content, not its name: message.txt (a long paste) is a scoreboard', async () => {
		const file = bot.fake.addAttachment('message.txt', '1. Alice\n2. Bob\n');
		const p = await preview([text('results', '-'), { name: 'file', type: ATTACHMENT, value: String(file['id']) }]);
		expect(p.text).toMatch(/1\. \*\*Alice\*\*/);
		await click(p.cancel!);
	});

	it("an ACC server's result file (UTF-16, as the server writes it) previews with its inferred retirements marked; Confirm stores it", async () => {
		const bytes = readFileSync(
			new URL(
				'../fixtures/results/mauserrifle-simresults/assettocorsa-competizione/191003_235558_R.json',
				import.meta.url,
			),
		);
		expect(bytes[1]).toBe(0); // UTF-16 LE without a byte order mark
		const file = bot.fake.addAttachment('191003_235558_R.json', bytes, 'application/json');
		const before = await eventCount();
		const p = await preview([text('results', '-'), { name: 'file', type: ATTACHMENT, value: String(file['id']) }]);
		// Discord markdown escaped (`\\:`), shown as typed; the ACC file name's day dates the race.
		expect(p.text).toContain('Read as Assetto Corsa Competizione server results, race (weekend session 3)\\: 3 racers');
		expect(p.text).toContain('On 2019-10-03 ·');
		expect(p.text).toMatch(/1\. \*\*Andrea Mel\*\* \*\(new player\)\* 38:49\.129 \*\(GT3\)\*/);
		expect(p.text).toMatch(/DNF \*\*Alberto For\*\* \*\(new player\)\* \*\(DNF inferred\\: 21 laps · GT3\)\*/);
		expect(p.text).toContain(
			'The file states no finish status\\: 2 statuses marked “inferred” are read from laps and time',
		);
		expect(mentionsOf(p.edit)).toEqual({ parse: [] });
		const stored = await click(p.confirm!);
		expect(visible(stored[1]!)).toMatch(/^Stored as \*\*R\d+\*\* in \*\*Sunday Cup\*\*\./);
		expect(await eventCount()).toBe(before + 1);
		const state = await bot.repo.loadState(leagueId);
		expect(state.playerBySimId('steam:123')?.name).toBe('Andrea Mel');
	});

	it('a multi-class iRacing export previews with a button per class; one pressed rates that class alone', async () => {
		const bytes = readFileSync(
			new URL('../fixtures/results/billyjack2-iRacing-League-Manager/eventresult_25819184.csv', import.meta.url),
		);
		const file = bot.fake.addAttachment('eventresult_25819184.csv', bytes, 'text/csv');
		const p = await preview([text('results', '-'), { name: 'file', type: ATTACHMENT, value: String(file['id']) }]);
		expect(p.text).toContain('Read as iRacing results export (CSV)\\: 33 racers');
		const buttons = ((dataOf(p.edit)['components'] as Json[])[1]!['components'] as Json[]).map((c) => [
			c['label'],
			c['disabled'] ?? false,
		]);
		expect(buttons).toEqual([
			['All classes', true],
			['LMP1 Class', false],
			['HPD ARX-01c', false],
			['GTE Class', false],
		]);
		const id = p.confirm!.split(':')[2]!;
		const [ack, updated] = await click(`race-class:${id}:1`);
		expect(ack).toMatchObject({ kind: 'callback', type: 6 });
		expect(visible(updated!)).toContain('Read as iRacing results export (CSV)\\: 7 racers of class LMP1 Class');
		expect(mentionsOf(updated!)).toEqual({ parse: [] });
		const rows = dataOf(updated!)['components'] as Json[];
		const ids = rows.flatMap((row) => (row['components'] as Json[]).map((c) => String(c['custom_id'])));
		const before = await eventCount();
		const stored = await click(ids.find((x) => x.startsWith('race:confirm:'))!);
		expect(visible(stored[1]!)).toMatch(/^Stored as \*\*R\d+\*\*/);
		expect(await eventCount()).toBe(before + 1);
	});

	it('Accept suggestions re-previews with the flagged names read as the known players; organizers only', async () => {
		const p = await preview([text('results', '1. Alcie; 2. Bob')]);
		expect(p.text).toContain('did you mean "Alice"?');
		const row = (dataOf(p.edit)['components'] as Json[])[0]!['components'] as Json[];
		expect(row.map((c) => c['label'])).toEqual(['Confirm', 'Cancel', 'Accept suggestions']);
		const accept = String(row[2]!['custom_id']);
		expect(accept).toBe(`race-suggest:${p.confirm!.split(':')[2]!}`);
		const refused = await click(accept, MEMBER);
		expect(visible(refused[1]!)).toMatch(/^Only league organizers/);
		expect(flagsOf(refused[1]!) & EPHEMERAL).toBe(EPHEMERAL);
		const [ack, updated] = await click(accept);
		expect(ack).toMatchObject({ kind: 'callback', type: 6 });
		expect(visible(updated!)).toContain('Read Alcie as Alice.');
		expect(visible(updated!)).toMatch(/1\. \*\*Alice\*\* \(exp\./);
		expect(visible(updated!)).not.toContain('did you mean');
		expect(mentionsOf(updated!)).toEqual({ parse: [] });
		const rows = dataOf(updated!)['components'] as Json[];
		const labels = rows.flatMap((r) => (r['components'] as Json[]).map((c) => c['label']));
		expect(labels).toEqual(['Confirm', 'Cancel']);
		const cancel = rows.flatMap((r) => (r['components'] as Json[]).map((c) => String(c['custom_id'])))[1]!;
		const before = await eventCount();
		expect(visible((await click(cancel))[1]!)).toBe('Cancelled: nothing was stored.');
		expect(await eventCount()).toBe(before);
	});

	it('a file that is not text is refused, and nothing is stored', async () => {
		const before = await eventCount();
		const png = bot.fake.addAttachment(
			'results.png',
			Buffer.from('89504e470d0a1a0a0000000d4948445200000010', 'hex'),
			'image/png',
		);
		await expectRefusal(
			'race',
			[sub('submit', [text('results', '-'), { name: 'file', type: ATTACHMENT, value: String(png['id']) }])],
			ORGANIZER,
			/^The file is not text: expected a sim result file \(JSON, XML, CSV, text\) or a scoreboard\. Nothing was stored\.$/,
		);
		expect(await eventCount()).toBe(before);
	});

	it('a CSV attachment is read as the scoreboard', async () => {
		const file = bot.fake.addAttachment('race.csv', 'player,position,time\nBob,1,59.5\nAlice,2,60.25\n', 'text/csv');
		const p = await preview([text('results', '-'), { name: 'file', type: ATTACHMENT, value: String(file['id']) }]);
		expect(p.text).toMatch(/1\. \*\*Bob\*\* 59\.500 \(exp\. \d\.\d\d\) —/);
		await click(p.cancel!);
	});

	it('a Race for Kicks thisrace.sb is read as the scoreboard: best competing lap each, in lap order', async () => {
		const sb = [
			'[1]',
			'name=Bob',
			'lap=3726',
			'',
			'[2]',
			'name=Alice',
			'lap=3750',
			'',
			'[3]',
			'name=Bob',
			'lap=3801',
			'', // a slower replay of Bob's: set aside
			'[4]',
			'name=Cy',
			'lap=3600',
			'competing=no', // not competing: dropped
		].join('\n');
		const file = bot.fake.addAttachment('thisrace.sb', sb, 'application/octet-stream');
		const p = await preview([{ name: 'file', type: ATTACHMENT, value: String(file['id']) }]);
		expect(p.text).toMatch(/1\. \*\*Bob\*\* 37\.260 \(exp\. \d\.\d\d\) —[^\n]*\n2\. \*\*Alice\*\* 37\.500 /);
		expect(p.text).not.toContain('Cy');
		await click(p.cancel!);
		const bad = bot.fake.addAttachment('thisrace.sb', '[1]\nname=Bob\nlap=fast\n');
		await expectRefusal(
			'race',
			[sub('submit', [{ name: 'file', type: ATTACHMENT, value: String(bad['id']) }])],
			ORGANIZER,
			/^thisrace\.sb:1: expected a name and a lap in hundredths of a second \(> 0\)\. Nothing was stored\.$/,
		);
	});

	it('hostile names with mentions and markdown are escaped and ping nobody', async () => {
		const before = await eventCount();
		const p = await preview([text('results', '1. @everyone; 2. **Bold** <@123456789012345678>; 3. Alice')]);
		expect(p.text).toContain('**@\u200Beveryone** *(new player)*');
		expect(p.text).toContain('**\\*\\*Bold\\*\\* <\u200B@\u200B123456789012345678\\>**');
		expect(mentionsOf(p.edit)).toEqual({ parse: [] });
		await click(p.cancel!);
		expect(await eventCount()).toBe(before);
	});

	it('/odds with one player, and with an unknown league', async () => {
		await expectRefusal('odds', [text('players', 'Alice')], MEMBER, /at least two players/);
		await expectRefusal(
			'leaderboard',
			[text('league', 'Nope')],
			MEMBER,
			/There is no league "Nope" in this server\. Leagues: \*\*Sunday Cup\*\*/,
		);
	});
});

describe('/race submit with a form (after the tests above: it adds a race)', () => {
	it('/race submit without results opens a form; a pasted multi-line scoreboard previews as the command does', async () => {
		const before = await eventCount();
		const opened = await bot.fake
			.sendSlashCommand('race', [sub('submit', [text('date', '2026-01-05')])], ORGANIZER)
			.next();
		expect(opened).toMatchObject({ kind: 'callback', type: 9 });
		const form = opened.kind === 'callback' ? (opened.data ?? {}) : {};
		expect(form['custom_id']).toBe('race-form:submit');
		const labels = form['components'] as { type: number; component: { custom_id: string; value?: string } }[];
		expect(labels.map((l) => [l.type, l.component.custom_id])).toEqual([
			[18, 'results'],
			[18, 'league'],
			[18, 'date'],
			[18, 'name'],
		]);
		expect(labels[2]!.component.value).toBe('2026-01-05'); // what was typed in the command is kept

		const pasted = 'Pos\tDriver\tTime\n1\tBob\t1:01.500\n2\tCarol\t1:02.250\n3\tAlice\t1:03.000';
		const handle = bot.fake.submitModal(
			'race-form:submit',
			{ results: pasted, league: '', date: '2026-01-05', name: '' },
			ORGANIZER,
		);
		const deferred = await handle.next();
		expect(deferred).toMatchObject({ kind: 'callback', type: 5 });
		expect(flagsOf(deferred) & EPHEMERAL).toBe(EPHEMERAL);
		const edit = await handle.next();
		expect(visible(edit)).toMatch(/^Sunday Cup\nRace preview\nOn 2026-01-05 · /);
		expect(visible(edit)).toMatch(
			/1\. \*\*Bob\*\* 1:01\.500 .*\n2\. \*\*Carol\*\* 1:02\.250 .*\n3\. \*\*Alice\*\* 1:03\.000 /,
		);
		expect(mentionsOf(edit)).toEqual({ parse: [] });
		const confirm = ((dataOf(edit)['components'] as Json[])[0]!['components'] as Json[])
			.map((c) => String(c['custom_id']))
			.find((id) => id.startsWith('race:confirm:'))!;
		await click(confirm);
		expect(await eventCount()).toBe(before + 1);
		const stored = (await bot.repo.readEvents(leagueId)).at(-1)!;
		expect(stored).toMatchObject({ type: 'race-submitted', race: { date: '2026-01-05' } });
	});

	it('a member who runs /race submit without results is refused before any form opens', async () => {
		const handle = bot.fake.sendSlashCommand('race', [sub('submit', [])], MEMBER);
		const reply = await handle.next();
		expect(reply).toMatchObject({ kind: 'callback', type: 4 });
		expect(visible(reply)).toMatch(/^Only league organizers/);
		expect(flagsOf(reply) & EPHEMERAL).toBe(EPHEMERAL);
	});
});

describe('/race show, void and edit take the league option (after the tests above: it adds a league)', () => {
	it('with two leagues, the race is looked up in the league named', async () => {
		await run('league', [sub('create', [text('name', 'Night Cup')])], ORGANIZER);
		const p = await preview([text('results', '1. Zed; 2. Yan'), text('league', 'Night Cup')]);
		await click(p.confirm!);
		const night = visible(await run('race', [sub('show', [text('race', 'R1'), text('league', 'Night Cup')])]));
		expect(night).toMatch(/^Night Cup\nR1\n/);
		expect(night).toContain('1. Zed');
		const sunday = visible(await run('race', [sub('show', [text('race', 'R1'), text('league', 'Sunday Cup')])]));
		expect(sunday).toMatch(/^Sunday Cup\nR1: Opener\n/);
		// Without it, the server's two leagues make the race ambiguous.
		await expectRefusal('race', [sub('show', [text('race', 'R1')])], MEMBER, /This server has 2 leagues/);
	});
});

describe('/race restore (after the tests above)', () => {
	it('an organizer restores a voided race with a reason; a member is refused; the log says restored', async () => {
		const races = () => bot.repo.readEvents(leagueId);
		const voided = await run(
			'race',
			[sub('void', [text('race', 'R1'), text('reason', 'test'), text('league', 'Sunday Cup')])],
			ORGANIZER,
		);
		expect(visible(voided)).toMatch(/^Voided\./);
		const before = (await races()).length;
		await expectRefusal(
			'race',
			[sub('restore', [text('race', 'R1'), text('reason', 'ok'), text('league', 'Sunday Cup')])],
			MEMBER,
			/^Only league organizers/,
		);
		expect((await races()).length).toBe(before);
		const reply = await run(
			'race',
			[sub('restore', [text('race', 'R1'), text('reason', 'counted after all'), text('league', 'Sunday Cup')])],
			ORGANIZER,
		);
		// R1 is rated before R3 again (races are rated in date order): the reply names it, with R1's date (the day it
		// was submitted on, by the clock).
		const dated = (await bot.repo.loadState(leagueId)).race('R1')!.date!;
		expect(dated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
		expect(visible(reply)).toMatch(
			new RegExp(
				`^Restored: it counts again\\. Dated ${dated}, before R3 already rated: its ratings were recomputed\\.`,
			),
		);
		expect(visible(reply)).toContain('- restored by <@');
		expect(flagsOf(reply) & EPHEMERAL).toBe(0);
		expect(mentionsOf(reply)).toEqual({ parse: [] });
		expect((await races()).at(-1)).toMatchObject({ type: 'race-restored', race: 'R1', reason: 'counted after all' });
	});
});
