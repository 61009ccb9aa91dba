/**
 * The race page, the player page's chart and explanations, and the forecast page (src/http/routes/league-pages.ts,
 * league-api.ts) through fastify's inject, over the real services on a memory store with real races. Every number is
 * the bot's: each racer's rating before and after a race is `/race show`'s (the race service, bit for bit) and, after
 * the latest race, `pitwall replay`'s; each explanation line is `/rating`'s and `/race show`'s text
 * (commands/rating/why-text.ts) for the same change; the chart's points are `/rating`'s chart data; the forecast is
 * `/forecast`'s with its default seed and seasons. No page shows a Discord user id; a voided and an edited race say
 * so; a forecast that cannot run says why.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { racerWhy as botRacerWhy, whyLines as botWhyLines } from '../../commands/rating/why-text.js';
import { fmtPct } from '../../commands/shared.js';
import replay from '../../src/cli/commands/replay.js';
import { writeHistoryCsv } from '../../src/formats/history-csv.js';
import { ratingChartSvg } from '../../src/http/pages/rating-chart-svg.js';
import { whyLines } from '../../src/http/pages/why-format.js';
import { buildHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/logger.js';
import {
	createLeagueWebService,
	type WebForecast,
	type WebRaceDetail,
} from '../../src/services/web/league-web-service.js';
import { leagueScale } from '../../src/services/ratings/shown-scale.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { addRace, organizer, world, type World } from '../services/helpers.js';

const USER_A = '810000000000000001';

const apps: FastifyInstance[] = [];
afterEach(async () => {
	for (const app of apps.splice(0)) await app.close();
});
const dir = mkdtempSync(join(tmpdir(), 'pitwall-race-pages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Races over two years (the forecast counts this year's races left from last year's number). */
const RACES: readonly [string, string][] = [
	['2025-03-02', '1. Alice 1:23.456\n2. Bob 1:24.000\n3. Carol 1:25.100\n4. Dave\n'],
	['2025-04-06', '1. Bob\n2. Carol\n3. Alice\n4. Dave DNF\n'],
	['2025-05-04', '1. Carol\n2. Alice\n3. Bob\n4. Erin\n'],
	['2025-06-01', '1. Alice\n2. Erin\n3. Dave\n4. Bob\n5. Carol DNS\n'],
	['2025-07-06', '1. Dave\n2. Alice\n3. Carol\n'],
	['2026-01-11', '1. Alice\n2. Bob\n3. Carol\n4. Dave\n5. Erin\n'],
	['2026-02-08', '1. Erin\n2. Alice\n3. Bob\n4. Carol DNF\n'],
];

async function site(headline = 'glicko', races = RACES) {
	const w = world(createMemoryStore());
	await w.services.leagues.create(organizer, { name: 'Club Racing', headline });
	for (const [date, text] of races) await addRace(w, text, undefined, date);
	await w.services.players.link(organizer, { player: 'Alice', user: USER_A });
	await w.services.leagues.configure(organizer, undefined, { visibility: 'public' });
	const league = (await w.repo.listAllLeagues())[0]!;
	const web = createLeagueWebService(w.repo, w.services.leaderboard, () => new Date(w.now.ms));
	const app = buildHttpServer({ log: createLogger({ level: 'silent', write: () => {} }), web });
	apps.push(app);
	const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
	return { w, league, web, get, path: encodeURIComponent(league.id) };
}

/** The text of an HTML fragment as a browser shows it (tags out, Eta's entities back). */
const text = (html: string) =>
	html
		.replace(/<[^>]+>/g, '')
		.replace(/&#39;/g, "'")
		.replace(/&quot;/g, '"')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');

/** `pitwall replay --as-of day` of the league's history with its parameters: player → rating as printed. */
async function replayed(w: World, leagueId: string, system: string, day: string): Promise<Map<string, string>> {
	const state = await w.repo.loadState(leagueId);
	const nameOf = (id: string) => state.playerById(id)!.name;
	const races = state.ratedRaces().map(({ race }) => ({
		...race,
		entries: race.entries.map((e) => ({ ...e, player: nameOf(e.player) })),
	}));
	const file = join(dir, `${system}-${day}.csv`);
	writeFileSync(file, writeHistoryCsv(races));
	let out = '';
	const params = Object.entries(state.config()!.params[system] ?? {}).flatMap(([k, v]) => ['--param', `${k}=${v}`]);
	const code = replay.run(['--system', system, '--input', file, '--as-of', day, ...params], {
		out: (t) => (out += t),
		err: () => {},
	});
	expect(code).toBe(0);
	return new Map(
		out
			.trim()
			.split('\n')
			.slice(1)
			.map((line) => line.split(','))
			.map(([player, rating]) => [player!, rating!]),
	);
}

describe('the race page', () => {
	it.each(['glicko', 'folyami', 'endure'])(
		'%s: every racer’s change is /race show’s, bit for bit, and its text the bot’s',
		async (headline) => {
			const s = await site(headline);
			const scale = leagueScale(s.league, headline);
			const state = await s.w.repo.loadState(s.league.id);
			for (const record of state.races()) {
				const res = await s.get(`/api/v1/leagues/${s.path}/races/${record.id}`);
				expect(res.statusCode).toBe(200);
				const race = res.json<Omit<WebRaceDetail, 'why'>>();
				const shown = await s.w.services.races.show(organizer, record.id);
				expect(shown.why?.system).toBe(headline);
				const bot = new Map(shown.why!.racers.map((w) => [w.player, w]));
				// Every rated racer has a change, equal to the bot's; the others (DNS) none.
				expect(
					race.results
						.filter((r) => r.rating !== null)
						.map((r) => r.id)
						.sort(),
				).toEqual([...bot.keys()].sort());
				for (const r of race.results) {
					const w = bot.get(r.id);
					if (w === undefined) {
						expect(r.rating).toBeNull();
						continue;
					}
					expect(r.rating).toEqual({
						before: w.before.rating,
						after: w.after.rating,
						change: w.after.rating - w.before.rating,
						uncertaintyBefore: w.before.uncertainty ?? null,
						uncertaintyAfter: w.after.uncertainty ?? null,
						expectedPlace: Number.isFinite(w.expectedRank) ? w.expectedRank : null,
					});
				}
				// The page writes /race show's line for each rated racer, and /rating's explanation after it.
				const page = text((await s.get(`/leagues/${s.path}/races/${record.id}`)).body);
				for (const w of bot.values()) {
					expect(page).toContain(`${w.name}: ${botRacerWhy(scale, w)}`);
					for (const line of botWhyLines(scale, w).slice(1)) expect(page).toContain(line);
				}
			}
		},
	);

	it('the latest race’s ratings after it are pitwall replay’s as of its day', async () => {
		const s = await site('glicko');
		const race = (await s.get(`/api/v1/leagues/${s.path}/races/R7`)).json<Omit<WebRaceDetail, 'why'>>();
		expect(race.date).toBe('2026-02-08');
		const cli = await replayed(s.w, s.league.id, 'glicko', race.date!);
		const rated = race.results.filter((r) => r.rating !== null);
		expect(rated.length).toBe(4); // Carol's DNF is rated
		for (const r of rated) expect(String(r.rating!.after)).toBe(cli.get(r.player));
	});

	it('a classification with times and statuses, players linked by league id, no Discord id', async () => {
		const s = await site();
		const res = await s.get(`/leagues/${s.path}/races/r1`);
		expect(res.statusCode).toBe(200);
		expect(res.headers['etag']).toMatch(/-race-R1\.html"$/);
		expect(res.body).toContain(`<a href="/leagues/${s.path}/players/1">Alice</a>`);
		expect(text(res.body)).toContain('1Alice1:23.456');
		expect(res.body).not.toContain(USER_A);
		expect(res.body).not.toContain(organizer.userId);
		expect(res.body).not.toMatch(/discord\.com\/users|<@/);
		const dnf = text((await s.get(`/leagues/${s.path}/races/R2`)).body);
		expect(dnf).toMatch(/DNFDave/);
		const dns = text((await s.get(`/leagues/${s.path}/races/R4`)).body);
		expect(dns).toMatch(/DNSCarolnot rated/);
		// A matching If-None-Match is 304; no such race is 404 (page and JSON).
		const again = await s.get(`/leagues/${s.path}/races/R1`, { 'if-none-match': res.headers['etag'] as string });
		expect(again.statusCode).toBe(304);
		expect((await s.get(`/leagues/${s.path}/races/R99`)).statusCode).toBe(404);
		expect((await s.get(`/api/v1/leagues/${s.path}/races/R99`)).json()).toEqual({
			status: 'not-found',
			message: 'There is no race R99 in this league.',
		});
	});

	it('a voided race says so and shows no rating; an edited one its reason, never who', async () => {
		const s = await site();
		await s.w.services.races.void(organizer, 'R3', 'wrong track');
		await s.w.services.races.edit(organizer, 'R2', '1. Bob\n2. Alice\n3. Carol\n4. Dave DNF\n', 'positions swapped');
		const voided = await s.get(`/leagues/${s.path}/races/R3`);
		expect(voided.body).toContain('This race is voided: it counts for no rating.');
		expect(text(voided.body)).toContain('Voided on 2026-03-01: wrong track');
		expect(voided.body).not.toContain('→');
		const json = (await s.get(`/api/v1/leagues/${s.path}/races/R3`)).json<Omit<WebRaceDetail, 'why'>>();
		expect(json.status).toBe('voided');
		expect(json.results.every((r) => r.rating === null)).toBe(true);
		const edited = await s.get(`/leagues/${s.path}/races/R2`);
		expect(text(edited.body)).toContain('Edited on 2026-03-01: positions swapped');
		expect(edited.body).not.toContain(organizer.userId);
		// The edit is rated as the bot rates it now.
		const shown = await s.w.services.races.show(organizer, 'R2');
		const alice = shown.why!.racers.find((w) => w.name === 'Alice')!;
		expect(text(edited.body)).toContain(botRacerWhy(leagueScale(s.league, 'glicko'), alice));
	});
});

describe('the player page', () => {
	it('explains every rated race as /rating does, the last one equal to /rating’s own', async () => {
		const s = await site();
		const scale = leagueScale(s.league, 'glicko');
		const page = text((await s.get(`/leagues/${s.path}/players/1`)).body);
		// /rating's explanation of Alice's last race, line for line (the first without "In R7 (date): ").
		const rating = await s.w.services.ratings.rating(organizer, { player: 'Alice' });
		const [first, ...rest] = botWhyLines(scale, rating.why!);
		expect(first!.startsWith('In R7 (2026-02-08): ')).toBe(true);
		expect(page).toContain(first!.slice('In R7 (2026-02-08): '.length));
		for (const line of rest) expect(page).toContain(line);
		// Every race of hers is explained as /race show explains it, in the web's copy of the text.
		for (const id of ['R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7']) {
			const w = (await s.w.services.races.show(organizer, id)).why!.racers.find((r) => r.name === 'Alice')!;
			expect(whyLines(scale, w)).toEqual(botWhyLines(scale, w));
			for (const line of botWhyLines(scale, w).slice(1)) expect(page).toContain(line);
		}
		expect(page).not.toContain(USER_A);
	});

	it('a race that did not rate the player says so', async () => {
		const s = await site();
		const carol = text((await s.get(`/leagues/${s.path}/players/3`)).body);
		expect(carol).toMatch(/R4 · 2025-06-01 · DNS \(5 racers\)\s*Not rated in glicko\./);
	});

	it('the chart is /rating’s chart data: a dot at each race’s rating, the band, no script', async () => {
		const s = await site();
		const html = (await s.get(`/leagues/${s.path}/players/2`)).body;
		const rating = await s.w.services.ratings.rating(organizer, { player: 'Bob', chart: true });
		const series = rating.chart!.series[0]!.points;
		const svg = ratingChartSvg(rating.chart!)!;
		const dots = [...html.matchAll(/<circle class="dot" cx="([\d.]+)" cy="([\d.]+)" r="2.5"><title>([^<]*)<\/title>/g)];
		const raced = series.filter((p) => p.race !== undefined);
		expect(dots.map((d) => d[3])).toEqual(raced.map((p) => `${p.race} · ${p.day} · ${p.rating.toFixed(1)}`));
		expect(dots.map((d) => [Number(d[1]), Number(d[2])])).toEqual(svg.markers.map((m) => [m.x, m.y]));
		// Higher rating, higher dot (smaller y).
		const [a, b] = [raced[0]!, raced[1]!];
		expect(Math.sign(Number(dots[1]![2]) - Number(dots[0]![2]))).toBe(-Math.sign(b.rating - a.rating));
		// Glicko has a band: one polygon per stretch; the line and the axes are drawn.
		expect(html.match(/<polygon class="band"/g)?.length).toBe(1);
		expect(html).toContain('band: ±2 RD');
		expect(html).not.toMatch(/<script/i);
	});
});

describe('the forecast page', () => {
	it('is /forecast with its defaults, number for number, kept until the log moves', async () => {
		const s = await site();
		const res = await s.get(`/api/v1/leagues/${s.path}/forecast`);
		expect(res.statusCode).toBe(200);
		const web = res.json<Extract<WebForecast, { available: true }>>();
		const bot = await s.w.services.forecast.forecast(organizer, {});
		expect(web.available).toBe(true);
		expect(web.seasons).toBe(bot.seasons);
		expect(web.seed).toBe(bot.seed);
		expect(web.racesLeft).toBe(3); // five races last year, two so far
		expect(web.rows).toEqual(
			bot.rows.map((r) => ({
				player: r.name,
				id: r.id,
				rating: r.rating,
				pointsNow: r.pointsNow,
				pTitle: r.pTitle,
				pTitleError: r.pTitleError,
				pTop3: r.pTop3,
				expectedPoints: r.expectedPoints,
			})),
		);
		const page = text((await s.get(`/leagues/${s.path}/forecast`)).body);
		expect(page).toContain('2 races so far in 2026, 3 left (from last year’s number of races); f1 points.');
		const leader = bot.rows[0]!;
		expect(page).toContain(`1${leader.name}${leader.pointsNow}${fmtPct(leader.pTitle)} ± `);
		// Kept: the same answer without a second run; a new race makes a new one.
		expect(await s.web.forecast(s.league)).toBe(await s.web.forecast(s.league));
		const before = await s.web.forecast(s.league);
		await addRace(s.w, '1. Dave\n2. Carol\n', undefined, '2026-02-22');
		expect(await s.web.forecast(s.league)).not.toBe(before);
	});

	it('says in plain words why there is no forecast', async () => {
		const s = await site('glicko', RACES.slice(5)); // no race last year: no count of races left
		const json = (await s.get(`/api/v1/leagues/${s.path}/forecast`)).json<WebForecast>();
		expect(json.available).toBe(false);
		const page = await s.get(`/leagues/${s.path}/forecast`);
		expect(page.statusCode).toBe(200);
		expect(text(page.body)).toContain('No forecast: The forecast needs to know how many races are left this season');
	});
});
