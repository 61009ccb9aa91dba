/**
 * The league web pages and JSON API (src/http/routes/league-api.ts, league-pages.ts) through fastify's inject, over
 * the real services on a memory store with real races: the standings equal `/leaderboard`'s and `pitwall replay`'s
 * for the same history, number for number; visibility (private and unknown 404, unlisted only with its secret);
 * caching headers and 304; no Discord user id in any answer; a hostile player name escaped in the HTML.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import replay from '../../src/cli/commands/replay.js';
import { writeHistoryCsv } from '../../src/formats/history-csv.js';
import { buildHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/logger.js';
import { createLeagueWebService, type WebStandings } from '../../src/services/web/league-web-service.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { addRace, GUILD, organizer, world, type World } from '../services/helpers.js';

const USER_A = '810000000000000001';
const USER_B = '810000000000000002';

const apps: FastifyInstance[] = [];
afterEach(async () => {
	for (const app of apps.splice(0)) await app.close();
});
const dir = mkdtempSync(join(tmpdir(), 'pitwall-web-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `none`: the league as created, never configured. */
async function site(visibility: 'public' | 'unlisted' | 'private' | 'none' = 'public') {
	const w = world(createMemoryStore());
	const league = await w.services.leagues.create(organizer, { name: 'Club Racing', headline: 'glicko' });
	await addRace(
		w,
		'1. Alice 1:23.456\n2. Bob 1:24.000\n3. <script>alert(1)</script> 1:25.100\n',
		undefined,
		'2026-02-01',
	);
	await addRace(w, '1. Bob\n2. Carol\n3. Alice\n4. Dave DNF\n', undefined, '2026-02-08');
	await addRace(w, '1. Carol\n2. Alice\n3. Bob\n', undefined, '2026-02-15');
	await w.services.players.link(organizer, { player: 'Alice', user: USER_A });
	await w.services.players.link(organizer, { player: 'Bob', user: USER_B });
	if (visibility !== 'none') await w.services.leagues.configure(organizer, undefined, { visibility });
	const info = (await w.repo.getLeague(league.id))!;
	const web = createLeagueWebService(w.repo, w.services.leaderboard, () => new Date(w.now.ms));
	const app = buildHttpServer({ log: createLogger({ level: 'silent', write: () => {} }), web });
	apps.push(app);
	const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
	return { w, league: info, app, get, path: encodeURIComponent(info.id) };
}

/** `pitwall replay` over the league's history as a history CSV, with the league's parameters, as of `day`. */
async function replayed(w: World, leagueId: string, system: string, day: string): Promise<string[][]> {
	const state = await w.repo.loadState(leagueId);
	const nameOf = (id: string) => state.playerById(id)!.name;
	const races = state.ratedRaces().map(({ race }) => ({
		...race,
		entries: race.entries.map((e) => ({ ...e, player: nameOf(e.player) })),
	}));
	const file = join(dir, `${system}.csv`);
	writeFileSync(file, writeHistoryCsv(races));
	const params = Object.entries(state.config()!.params[system] ?? {}).flatMap(([k, v]) => ['--param', `${k}=${v}`]);
	let out = '';
	const code = replay.run(['--system', system, '--input', file, '--as-of', day, ...params], {
		out: (text) => (out += text),
		err: () => {},
	});
	expect(code).toBe(0);
	return out
		.trim()
		.split('\n')
		.slice(1)
		.map((line) => line.split(','));
}

describe('GET /api/v1/leagues/<id>/standings', () => {
	it.each(['glicko', 'folyami', 'endure'])(
		'%s: every row equals /leaderboard and pitwall replay, with rank',
		async (system) => {
			const s = await site();
			const res = await s.get(`/api/v1/leagues/${s.path}/standings?system=${system}`);
			expect(res.statusCode).toBe(200);
			expect(res.headers['content-type']).toMatch(/^application\/json/);
			const body = res.json<WebStandings>();
			expect(body.league).toEqual({ id: s.league.id, name: 'Club Racing', server: GUILD, headline: 'glicko' });
			expect(body.system).toBe(system);
			expect(body.asOf).toBe('2026-03-01');
			const board = await s.w.services.leaderboard.page(organizer, { system });
			expect(body.rows).toEqual(
				board.rows.map((r) => ({
					rank: r.rank,
					player: r.name,
					id: r.player,
					rating: r.rating,
					uncertainty: r.uncertainty ?? null,
					races: r.races,
					provisional: r.provisional,
				})),
			);
			const cli = await replayed(s.w, s.league.id, system, body.asOf);
			expect(
				body.rows.map((r) => [
					r.player,
					String(r.rating),
					r.uncertainty === null ? '' : String(r.uncertainty),
					String(r.races),
					String(r.provisional),
				]),
			).toEqual(cli.map(([player, ...rest]) => [player!.replace(/^"|"$/g, ''), ...rest]));
		},
	);

	it('the CSV download has the same rows', async () => {
		const s = await site();
		const json = (await s.get(`/api/v1/leagues/${s.path}/standings`)).json<WebStandings>();
		const res = await s.get(`/api/v1/leagues/${s.path}/standings.csv`);
		expect(res.statusCode).toBe(200);
		expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
		expect(res.headers['content-disposition']).toBe('attachment; filename="Club-Racing-glicko-2026-03-01.csv"');
		const lines = res.body.trim().split('\n');
		expect(lines[0]).toBe('rank,player,rating,uncertainty,races,provisional');
		expect(lines).toHaveLength(json.rows.length + 1);
		const alice = json.rows.find((r) => r.player === 'Alice')!;
		expect(lines).toContain(
			`${alice.rank},Alice,${alice.rating},${alice.uncertainty},${alice.races},${alice.provisional}`,
		);
	});

	it('ETag from the log seq and the day, short Cache-Control; 304 when unchanged, a new tag after a race', async () => {
		const s = await site();
		const url = `/api/v1/leagues/${s.path}/standings`;
		const first = await s.get(url);
		expect(first.headers['cache-control']).toBe('public, max-age=60');
		const seq = (await s.w.repo.loadState(s.league.id)).seq();
		expect(first.headers['etag']).toBe(`"${seq}-2026-03-01-glicko"`);
		const again = await s.get(url, { 'if-none-match': first.headers['etag'] as string });
		expect(again.statusCode).toBe(304);
		expect(again.body).toBe('');
		await addRace(s.w, '1. Dave\n2. Alice\n', undefined, '2026-02-20');
		const after = await s.get(url, { 'if-none-match': first.headers['etag'] as string });
		expect(after.statusCode).toBe(200);
		expect(after.headers['etag']).not.toBe(first.headers['etag']);
		s.w.now.ms += 86_400_000; // the next day grows every rating: a new tag
		const tomorrow = await s.get(url, { 'if-none-match': after.headers['etag'] as string });
		expect(tomorrow.statusCode).toBe(200);
		expect(tomorrow.headers['etag']).toBe(`"${seq + 1}-2026-03-02-glicko"`);
	});

	it('an unknown system is 400 naming the known ones', async () => {
		const s = await site();
		const res = await s.get(`/api/v1/leagues/${s.path}/standings?system=elo`);
		expect(res.statusCode).toBe(400);
		expect(res.json<{ message: string }>().message).toMatch(/^Unknown rating system "elo"; known: folyami, /);
	});
});

describe('visibility', () => {
	it('a private league (the default) serves nothing and is not listed', async () => {
		for (const visibility of ['none', 'private'] as const) {
			const s = await site(visibility);
			expect(s.league.config.visibility).toBeUndefined();
			for (const url of [
				`/api/v1/leagues/${s.path}/standings`,
				`/api/v1/leagues/${s.path}/standings.csv`,
				`/leagues/${s.path}`,
			]) {
				expect((await s.get(url)).statusCode, url).toBe(404);
			}
			expect((await s.get('/api/v1/leagues')).json()).toEqual({ leagues: [] });
		}
	});

	it('an unknown league is 404', async () => {
		const s = await site();
		const res = await s.get('/api/v1/leagues/nope/standings');
		expect(res.statusCode).toBe(404);
		expect(res.json()).toEqual({ status: 'not-found', message: 'There is no public league "nope".' });
		expect((await s.get('/leagues/nope')).statusCode).toBe(404);
	});

	it('an unlisted league only at <id>-<secret>, stable across settings, not listed, not indexed', async () => {
		const s = await site('unlisted');
		const secret = s.league.config.webSecret!;
		expect(secret).toMatch(/^[0-9a-f]{24}$/);
		expect((await s.get(`/api/v1/leagues/${s.path}/standings`)).statusCode).toBe(404);
		expect((await s.get(`/api/v1/leagues/${s.path}-${'0'.repeat(24)}/standings`)).statusCode).toBe(404);
		const ok = await s.get(`/api/v1/leagues/${s.path}-${secret}/standings`);
		expect(ok.statusCode).toBe(200);
		expect(ok.headers['cache-control']).toBe('private, max-age=60');
		expect(ok.headers['x-robots-tag']).toBe('noindex');
		const page = await s.get(`/leagues/${s.path}-${secret}`);
		expect(page.statusCode).toBe(200);
		expect(page.body).toContain('<meta name="robots" content="noindex">');
		expect((await s.get('/api/v1/leagues')).json()).toEqual({ leagues: [] });
		// Private, then unlisted again: the same link works again.
		await s.w.services.leagues.configure(organizer, undefined, { visibility: 'private' });
		expect((await s.get(`/api/v1/leagues/${s.path}-${secret}/standings`)).statusCode).toBe(404);
		const back = await s.w.services.leagues.configure(organizer, undefined, { visibility: 'unlisted' });
		expect(back.config.webSecret).toBe(secret);
		expect((await s.get(`/api/v1/leagues/${s.path}-${secret}/standings`)).statusCode).toBe(200);
		// Public: the plain id, and the secret link no longer.
		await s.w.services.leagues.configure(organizer, undefined, { visibility: 'public' });
		expect((await s.get(`/api/v1/leagues/${s.path}/standings`)).statusCode).toBe(200);
		expect((await s.get(`/api/v1/leagues/${s.path}-${secret}/standings`)).statusCode).toBe(404);
	});

	it('GET /api/v1/leagues lists the public leagues only: id, name, server, headline', async () => {
		const s = await site();
		await s.w.services.leagues.create(organizer, { name: 'Hidden Cup' });
		const res = await s.get('/api/v1/leagues');
		expect(res.statusCode).toBe(200);
		expect(res.headers['cache-control']).toBe('public, max-age=60');
		expect(res.json()).toEqual({
			leagues: [{ id: s.league.id, name: 'Club Racing', server: GUILD, headline: 'glicko' }],
		});
	});
});

describe('answers', () => {
	it('carry no Discord user id (linked players), nor the organizer’s', async () => {
		const s = await site();
		const urls = [
			'/',
			'/api/v1/leagues',
			`/api/v1/leagues/${s.path}/standings`,
			`/api/v1/leagues/${s.path}/standings.csv`,
			`/leagues/${s.path}`,
			`/leagues/${s.path}/players/1`,
			`/leagues/${s.path}/players/2`,
		];
		for (const system of ['folyami', 'glicko', 'endure', 'speed', 'stk']) {
			urls.push(`/leagues/${s.path}?system=${system}`, `/api/v1/leagues/${s.path}/standings?system=${system}`);
		}
		for (const url of urls) {
			const res = await s.get(url);
			expect(res.statusCode, url).toBe(200);
			for (const id of [USER_A, USER_B, organizer.userId]) expect(res.body, url).not.toContain(id);
			expect(res.body, url).not.toMatch(/<@!?\d+>|discord(app)?\.com\/users/);
		}
	});

	it('the league page escapes a hostile player name, shows uncertainty and the last races, without scripts', async () => {
		const s = await site();
		const res = await s.get(`/leagues/${s.path}`);
		expect(res.statusCode).toBe(200);
		expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(res.headers['etag']).toMatch(/^"\d+-2026-03-01-glicko\.html"$/);
		expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
		expect(res.body).not.toContain('<script');
		expect(res.body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
		expect(res.body).toContain('<th class="n">RD</th>');
		expect(res.body).toContain(
			`<a href="/leagues/${s.path}/races/R3"><strong>R3</strong></a> · 2026-02-15 · 3 racers: 1. Carol, 2. Alice, 3. Bob`,
		);
		expect(res.body).toContain(`href="/api/v1/leagues/${s.path}/standings.csv?system=glicko"`);
		expect(res.body).toContain(`<a href="/leagues/${s.path}/players/3">&lt;script&gt;alert(1)&lt;/script&gt;</a>`);
		const home = await s.get('/');
		expect(home.body).toContain(`<a href="/leagues/${s.path}">Club Racing</a>`);
	});
});

describe('the player page', () => {
	it('every system’s row as the bot shows it, the races newest first; 404 for no such player', async () => {
		const s = await site();
		const res = await s.get(`/leagues/${s.path}/players/3`);
		expect(res.statusCode).toBe(200);
		expect(res.body).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
		expect(res.body).not.toContain('<script');
		const alice = await s.get(`/leagues/${s.path}/players/1`);
		const glicko = (await s.get(`/api/v1/leagues/${s.path}/standings`))
			.json<WebStandings>()
			.rows.find((r) => r.id === '#1')!;
		expect(alice.body).toContain(
			`<td>glicko</td><td class="n">${glicko.rank}</td><td class="n">${glicko.rating.toFixed(1)}${glicko.provisional ? '†' : ''}</td><td class="n">${glicko.uncertainty!.toFixed(1)}</td><td class="n">3</td>`,
		);
		expect(alice.body.indexOf('<strong>R3</strong>')).toBeLessThan(alice.body.indexOf('<strong>R1</strong>'));
		expect(alice.body).toContain(`<a href="/leagues/${s.path}/races/R2"><strong>R2</strong></a> · 2026-02-08 · 3 of 4`);
		expect((await s.get(`/leagues/${s.path}/players/99`)).statusCode).toBe(404);
		const hidden = await site('private');
		expect((await hidden.get(`/leagues/${hidden.path}/players/1`)).statusCode).toBe(404);
	});
});

describe('a league of 300 races', () => {
	it('answers its standings again and again with the same body (timings: bench/pages.ts)', async () => {
		const s = await site();
		const names = Array.from({ length: 30 }, (_, i) => `Driver ${i + 1}`);
		for (let r = 0; r < 300; r++) {
			const field = names.filter((_, i) => (i + r) % 3 !== 0).sort(() => 0.5 - ((r * 7919) % 13) / 13);
			await addRace(
				s.w,
				field.map((n, i) => `${i + 1}. ${n}`).join('\n'),
				undefined,
				`2025-${String(1 + Math.floor(r / 28)).padStart(2, '0')}-${String(1 + (r % 28)).padStart(2, '0')}`,
			);
		}
		const url = `/api/v1/leagues/${s.path}/standings`;
		const first = await s.get(url);
		expect(first.statusCode).toBe(200);
		const players = first.json<WebStandings>().rows.map((row) => row.player);
		for (const name of names) expect(players).toContain(name);
		for (let i = 0; i < 50; i++) {
			const again = await s.get(url);
			expect(again.statusCode).toBe(200);
			expect(again.body).toBe(first.body);
		}
	});
});
