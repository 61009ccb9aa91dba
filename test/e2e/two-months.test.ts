/**
 * A league run across two months on a fixed clock, end to end. The REAL discord.js client
 * against the fake Discord; the real router, services, scheduler, daily-standings and monthly-post jobs, the real
 * ranking composer and chart renderer (worker thread) over a memory store. The clock is injected; each hourly tick
 * runs both jobs with `runNow` (fake timers would stop the client's own heartbeat and REST timers).
 *
 * Checked: a daily record for every day, each equal to a fresh computation; the growth /rating shows day by day,
 * equal to `pitwall replay --as-of` on the same history and day; exactly one ranking post per month, with its chart;
 * /rating, /leaderboard and /odds answer within Discord's 3 s with their chart attached.
 */
import { Events, type Client } from 'discord.js';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, commands } from '../../commands/index.js';
import { fmtRating } from '../../commands/shared.js';
import { createChartRenderer } from '../../src/charts/create-chart-renderer.js';
import type { ChartRenderer } from '../../src/charts/chart-types.js';
import { main } from '../../src/cli/main.js';
import { createChannelPoster } from '../../src/discord/channel-poster.js';
import { startBot } from '../../src/discord/client.js';
import { writeHistoryCsv } from '../../src/formats/history-csv.js';
import { addDays } from '../../src/league/dates.js';
import { standingsAsOf } from '../../src/league/standings.js';
import { createJobs } from '../../src/jobs/index.js';
import { createScheduler, type Scheduler } from '../../src/jobs/scheduler.js';
import { createLogger } from '../../src/logger.js';
import { raceSystems } from '../../src/ratings/index.js';
import type { Race } from '../../src/ratings/types.js';
import { createServices, type Services } from '../../src/services/index.js';
import { createNoticeService } from '../../src/services/posts/notices.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { LeagueRepository } from '../../src/storage/ports.js';
import { PNG_SIGNATURE } from '../jobs/helpers.js';
import { startFakeDiscord, type FakeDiscord, type Json, type RawOption } from './fake-discord.js';
import { embedLength, type EmbedData } from '../../src/formats/embed.js';
import { messageText, visible, dataOf, MEMBER, mentionsOf, ORGANIZER, sub, text } from './league-bot.js';
import { leagueParamArgs, leagueParams } from '../support/league-params.js';

const HOUR = 3_600_000;
const CHANNEL = 7;
const clock = { ms: Date.parse('2026-10-01T08:01:00Z') };
const now = () => new Date(clock.ms);
const organizerActor = { userId: ORGANIZER.userId!, guildId: '', manageGuild: true, roles: [] };
const dir = mkdtempSync(join(tmpdir(), 'pitwall-two-months-'));

let fake: FakeDiscord;
let client: Client;
let repo: LeagueRepository;
let services: Services;
let scheduler: Scheduler;
let charts: ChartRenderer;
let rankings = '';
let leagueId = '';

/** Saturdays with a race, and who races (Ian only in the first two, then idles). */
const RACES: readonly [string, string][] = [
	['2026-10-03', 'Alice, Bob, Carol, Dan, Ian'],
	['2026-10-10', 'Bob, Ian, Alice, Carol, Dan'],
	['2026-10-17', 'Carol, Alice, Dan, Bob'],
	['2026-10-24', 'Alice, Dan, Bob, Carol, Eve'],
	['2026-11-07', 'Dan, Alice, Carol, Eve'],
	['2026-11-14', 'Alice, Eve, Bob, Dan, Carol, Fay'],
	['2026-11-21', 'Bob, Alice, Fay, Carol'],
	['2026-11-28', 'Alice, Carol, Bob, Dan, Eve, Fay'],
];

beforeAll(async () => {
	fake = await startFakeDiscord();
	const store = createMemoryStore();
	repo = createLeagueRepository(store, { clock: now });
	const log = createLogger({ level: 'silent' });
	const jobs = store.namespace('jobs');
	const notices = createNoticeService({ store: jobs, getLeague: (id) => repo.getLeague(id) });
	charts = createChartRenderer();
	services = createServices(repo, { clock: now, jobs, charts });
	client = await startBot({
		config: { DISCORD_API_URL: fake.apiUrl, DISCORD_TOKEN: fake.token },
		context: { log, services, charts },
		commands,
		buttons,
		notices,
	});
	if (!client.isReady()) await once(client, Events.ClientReady);
	const guildIds = () => client.guilds.cache.keys();
	const poster = createChannelPoster(client);
	scheduler = createScheduler({
		log,
		clock: now,
		jobs: createJobs({ services, jobs, poster, notices, guildIds, log, clock: now }),
	});
}, 30_000);

afterAll(async () => {
	await scheduler.stop();
	await client.destroy();
	await charts.close();
	await fake.close();
	// PITWALL_KEEP_OUTPUT=1 keeps the posted charts and CSVs to look at (the path is printed).
	if (process.env['PITWALL_KEEP_OUTPUT'] === undefined) rmSync(dir, { recursive: true, force: true });
	else console.log(`two-months output kept in ${dir}`);
});

/** A command's final answer (after a defer) and how long it took to arrive. */
async function run(name: string, options: RawOption[], actor = MEMBER) {
	const started = Date.now();
	const handle = fake.sendSlashCommand(name, options, actor);
	const first = await handle.next();
	const firstMs = Date.now() - started;
	const reply = first.kind === 'callback' && first.type === 5 ? await handle.next() : first;
	return { first, firstMs, reply, ms: Date.now() - started };
}

/** Ticks hourly (one minute past) until `iso`, running both jobs; races are confirmed at 18:00 UTC on their day. */
async function runUntil(iso: string): Promise<void> {
	const end = Date.parse(iso);
	for (; clock.ms <= end; clock.ms += HOUR) {
		const day = new Date(clock.ms).toISOString().slice(0, 10);
		const race = RACES.find(([d]) => d === day);
		if (race !== undefined && new Date(clock.ms).getUTCHours() === 18) {
			const text = race[1]
				.split(', ')
				.map((name, i) => `${i + 1}. ${name}`)
				.join('\n');
			const actor = { ...organizerActor, guildId: fake.guildId };
			const preview = await services.races.submit(actor, { league: 'Kart Club', text });
			await services.races.confirm(actor, preview.id);
		}
		await scheduler.runNow('daily-standings');
		await scheduler.runNow('monthly-ranking-post');
	}
}

/** The league's history as `pitwall` reads it, and the CLI's replay as of `day`. */
async function cliReplay(day: string): Promise<Map<string, string[]>> {
	const state = await repo.loadState(leagueId);
	const races: Race[] = state.ratedRaces().map(({ race }) => ({
		...race,
		entries: race.entries.map((e) => ({ ...e, player: state.resolve(e.player)!.name })),
	}));
	const file = join(dir, `kart-${day}.csv`);
	writeFileSync(file, writeHistoryCsv(races));
	let out = '';
	expect(
		await main(['replay', '--system', 'glicko', '--input', file, '--as-of', day, ...leagueParamArgs('glicko')], {
			out: (t) => void (out += t),
			err: () => undefined,
		}),
	).toBe(0);
	return new Map(
		out
			.trim()
			.split('\n')
			.slice(1)
			.map((line) => [line.split(',')[0]!, line.split(',')]),
	);
}

describe('a league across two months (fixed clock)', () => {
	it('is set up by its organizer: Glicko headline, Budapest time, a ranking channel, the post on day 1 at 12:00', async () => {
		rankings = fake.addChannel('rankings');
		await run(
			'league',
			[sub('create', [text('name', 'Kart Club'), text('system', 'glicko'), text('timezone', 'Europe/Budapest')])],
			ORGANIZER,
		);
		const config = await run(
			'league',
			[
				sub('config', [
					{ name: 'ranking-channel', type: CHANNEL, value: rankings },
					text('post-day', 1),
					text('post-hour', 12),
				]),
			],
			ORGANIZER,
		);
		expect(visible(config.reply)).toContain(`Ranking channel: <#${rankings}>`);
		leagueId = (await repo.listLeagues(fake.guildId))[0]!.id;
	});

	it('runs October: one post on November 1st at 12:00 Budapest time, with its chart', async () => {
		await runUntil('2026-11-01T12:00:00Z');
		const posts = fake.postedIn(rankings);
		expect(posts).toHaveLength(1);
		const body = messageText(posts[0]!.body);
		expect(body).toContain('Kart Club · glicko\nMonthly ranking, October 2026\n');
		expect(body).toContain('4 races since 2026-10-01 · 6 rated players');
		expect(body).toContain('\nNewcomers\n');
		expect(body).toMatch(/as of 2026-11-01 · † provisional · pitwall ranking \S+ 2026-11$/);
		const [embed] = posts[0]!.body['embeds'] as Json[];
		expect(embed).toMatchObject({ color: 0xf1c40f, image: { url: 'attachment://ranking.png' } });
		expect(embedLength(embed as unknown as EmbedData)).toBeLessThanOrEqual(6000);
		expect(posts[0]!.body['allowed_mentions']).toEqual({ parse: [] });
		expect(posts[0]!.files.map((f) => [f.filename, f.data.subarray(0, 8)])).toEqual([['ranking.png', PNG_SIGNATURE]]);
		writeFileSync(join(dir, 'post-october.png'), posts[0]!.files[0]!.data);
		writeFileSync(join(dir, 'post-october.txt'), body);
	}, 120_000);

	it('runs November: exactly one more post, on December 1st; movers and the idle player’s growth', async () => {
		await runUntil('2026-12-01T13:00:00Z');
		const posts = fake.postedIn(rankings);
		expect(posts).toHaveLength(2);
		const body = messageText(posts[1]!.body);
		expect(body).toContain('Kart Club · glicko\nMonthly ranking, November 2026\n');
		expect(body).toMatch(/as of 2026-12-01 · † provisional/);
		expect(body).toContain('4 races since 2026-11-01');
		expect(body).toMatch(/\nBiggest (gains|drops)\n/);
		// Numbers add up on screen: each change shown is the difference of the two ratings shown.
		const moves = [...body.matchAll(/([+−])(\d+\.\d) \((\d+\.\d) → (\d+\.\d)\)/g)];
		expect(moves.length).toBeGreaterThan(0);
		for (const [, sign, change, from, to] of moves) {
			expect((sign === '+' ? 1 : -1) * Number(change)).toBeCloseTo(Number(to) - Number(from), 9);
		}
		expect(body).toContain('\nNewcomers\nFay');
		expect(posts[1]!.files[0]!.data.subarray(0, 8)).toEqual(PNG_SIGNATURE);
		writeFileSync(join(dir, 'post-november.png'), posts[1]!.files[0]!.data);
		writeFileSync(join(dir, 'post-november.txt'), body);
	}, 120_000);

	it('wrote a daily record for every day, each equal to a fresh computation of that day', async () => {
		const days: string[] = [];
		// Each day is recorded once it is over: 1 October to 30 November (1 December is still running).
		for (let day = '2026-10-01'; day <= '2026-11-30'; day = addDays(day, 1)) days.push(day);
		expect(await repo.readDaily(leagueId, ['2026-12-01'])).toEqual([undefined]);
		const records = await repo.readDaily(leagueId, days);
		const state = await repo.loadState(leagueId);
		const races = state.ratedRaces().map((r) => r.race);
		for (const [i, day] of days.entries()) {
			expect(records[i], day).toBeDefined();
			for (const system of raceSystems) {
				expect(records[i]!.systems[system.id], `${day} ${system.id}`).toEqual(
					standingsAsOf(system, leagueParams(system), races, day),
				);
			}
		}
		// Ian's RD rises every day he is idle, and /rating shows the same growth.
		const rd = (i: number) =>
			records[i]!.systems['glicko']!.find((s) => s.player === state.resolve('Ian')!.id)!.uncertainty!;
		for (let i = 11; i < days.length; i++) expect(rd(i)).toBeGreaterThan(rd(i - 1));
	});

	it('/rating shows the idle growth as of today, equal to pitwall replay --as-of, with its chart, within 3 s', async () => {
		for (const day of ['2026-12-01', '2026-12-20']) {
			clock.ms = Date.parse(`${day}T15:00:00Z`);
			const cli = (await cliReplay(day)).get('Ian')!;
			const { first, firstMs, reply, ms } = await run('rating', [text('player', 'Ian')]);
			expect(first).toMatchObject({ kind: 'callback', type: 5 });
			expect(firstMs).toBeLessThan(3000);
			expect(ms).toBeLessThan(3000);
			const body = visible(reply);
			expect(body).toMatch(new RegExp(`as of ${day}$`));
			expect(body).toContain(`Rating\n${fmtRating(Number(cli[1]))}`);
			expect(body).toContain(`RD\n${fmtRating(Number(cli[2]))}`);
			expect(body).toMatch(
				new RegExp(
					`Last race: 2026-10-10, ${(Date.parse(day) - Date.parse('2026-10-10')) / 86_400_000} days ago \\(RD was `,
				),
			);
			expect(reply.kind === 'edit' && reply.files.map((f) => f.filename)).toEqual(['rating.png']);
			expect(mentionsOf(reply)).toEqual({ parse: [] });
			if (day === '2026-12-20')
				writeFileSync(join(dir, 'rating-ian.png'), reply.kind === 'edit' ? reply.files[0]!.data : Buffer.alloc(0));
		}
	});

	it('/leaderboard and /odds attach their charts within 3 s', async () => {
		for (const [name, options, file] of [
			['leaderboard', [], 'leaderboard.png'],
			['odds', [text('players', 'Alice, Bob, Carol, Ian')], 'odds.png'],
			['odds', [text('players', 'Alice, Ian')], 'odds.png'],
		] as const) {
			const { ms, reply } = await run(name, [...options]);
			expect(ms).toBeLessThan(3000);
			expect(reply.kind === 'edit' && reply.files.map((f) => [f.filename, f.data.subarray(0, 8)])).toEqual([
				[file, PNG_SIGNATURE],
			]);
			expect(dataOf(reply)['allowed_mentions']).toEqual({ parse: [] });
		}
	});
});
