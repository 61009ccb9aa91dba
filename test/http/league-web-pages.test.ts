/**
 * The league page's leaderboard in pages of 100 rows (the JSON and CSV whole), its championship section and the
 * championship's own page and JSON (numbers equal to `/standings`' service, counted by hand for a small season), and
 * a burst of requests for a version nobody has read yet sharing one reading of the standings (single flight).
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/logger.js';
import type { LeaderboardService } from '../../src/services/ratings/leaderboard-service.js';
import { createLeagueWebService, type WebChampionship } from '../../src/services/web/league-web-service.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { addRace, member, organizer, world, type World } from '../services/helpers.js';

const apps: FastifyInstance[] = [];
afterEach(async () => {
	for (const app of apps.splice(0)) await app.close();
});

function serve(w: World, leaderboard: LeaderboardService = w.services.leaderboard) {
	const web = createLeagueWebService(w.repo, leaderboard, () => new Date(w.now.ms), { warm: false });
	const app = buildHttpServer({ log: createLogger({ level: 'silent', write: () => {} }), web });
	apps.push(app);
	return (url: string) => app.inject({ method: 'GET', url });
}

/** The rows of an HTML table body as cell texts (tags stripped). */
const tableRows = (html: string, heading: string): string[][] => {
	const section = html.slice(html.indexOf(heading));
	const body = section.slice(section.indexOf('<tbody>'), section.indexOf('</tbody>'));
	return [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) =>
		[...m[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, '')),
	);
};

describe('the leaderboard in pages', () => {
	it('100 rows a page with links between them, ranks running on; the JSON and CSV keep every row', async () => {
		const w = world(createMemoryStore());
		const league = await w.services.leagues.create(organizer, { name: 'Big Grid', headline: 'glicko' });
		const field = (from: number) =>
			Array.from({ length: 130 }, (_, i) => `${i + 1}. Driver ${((i + from) % 130) + 1}`).join('\n');
		await addRace(w, field(0), undefined, '2026-02-01');
		await addRace(w, field(7), undefined, '2026-02-08');
		await w.services.leagues.configure(organizer, undefined, { visibility: 'public' });
		const get = serve(w);
		const base = `/leagues/${encodeURIComponent(league.id)}`;
		const api = await get(`/api/v1/leagues/${encodeURIComponent(league.id)}/standings`);
		const all = api.json<{ rows: { rank: number; player: string }[] }>().rows;
		expect(all).toHaveLength(130);

		const first = await get(base);
		expect(first.statusCode).toBe(200);
		const rows1 = tableRows(first.body, '<h2>Leaderboard</h2>');
		expect(rows1).toHaveLength(100);
		expect(rows1.map((r) => r[1]!.replace('†', ''))).toEqual(all.slice(0, 100).map((r) => r.player));
		expect(first.body).toContain('130 players');
		expect(first.body).toContain('Page 1 of 2 (rows 1–100)');
		expect(first.body).toContain(`href="${base}?system=glicko&amp;page=2" rel="next"`);
		expect(first.body).not.toContain('rel="prev"');

		const second = await get(`${base}?page=2`);
		const rows2 = tableRows(second.body, '<h2>Leaderboard</h2>');
		expect(rows2.map((r) => Number(r[0]))).toEqual(all.slice(100).map((r) => r.rank));
		expect(rows2.map((r) => r[1]!.replace('†', ''))).toEqual(all.slice(100).map((r) => r.player));
		expect(second.body).toContain('Page 2 of 2 (rows 101–130)');
		expect(second.body).toContain(`href="${base}?system=glicko" rel="prev"`);
		expect(second.headers['etag']).not.toBe(first.headers['etag']);
		// Past the end: the last page; not a number: the first.
		expect(tableRows((await get(`${base}?page=9`)).body, '<h2>Leaderboard</h2>')).toEqual(rows2);
		expect(tableRows((await get(`${base}?page=x`)).body, '<h2>Leaderboard</h2>')).toEqual(rows1);
		const csv = await get(`/api/v1/leagues/${encodeURIComponent(league.id)}/standings.csv`);
		expect(csv.body.trim().split('\n')).toHaveLength(131);
	});
});

/** Kart: points 10,6,4,3; two races in 2026, one in 2025. */
async function kart() {
	const w = world(createMemoryStore());
	const league = await w.services.leagues.create(organizer, { name: 'Kart', headline: 'glicko' });
	await w.services.leagues.configure(organizer, undefined, { points: '10,6,4,3', visibility: 'public' });
	await addRace(w, '1. Dan\n2. Cy\n3. Bob\n4. Ann', undefined, '2025-06-01');
	await addRace(w, '1. Ann\n2. Bob\n3. Cy\n4. Dan', undefined, '2026-02-01');
	await addRace(w, '1. Bob\n2. Cy\n3. Ann\n4. Dan DNF', undefined, '2026-02-08');
	return { w, league, path: encodeURIComponent(league.id) };
}

type Available = Extract<WebChampionship, { available: true }>;

describe('the championship', () => {
	it('GET /api/v1/leagues/<id>/championship: the current season, numbers equal to /standings’ and by hand', async () => {
		const { w, path } = await kart();
		const get = serve(w);
		const res = await get(`/api/v1/leagues/${path}/championship`);
		expect(res.statusCode).toBe(200);
		expect(res.headers['etag']).toMatch(/-2026-03-01-championship"$/);
		const body = res.json<Available>();
		expect(body.available).toBe(true);
		expect(body.season.name).toBe('2026');
		expect(body.seasons.map((s) => s.name)).toEqual(['2025', '2026']);
		expect(body.races).toBe(2);
		// By hand: Bob 6 + 10, Ann 10 + 4, Cy 4 + 6.
		const service = await w.services.standings.table(member, {});
		expect(body.rows.map((r) => `${r.place} ${r.player} ${r.points} ${r.wins} ${r.podiums}`)).toEqual(
			service.drivers.map((d) => `${d.place} ${d.name} ${d.points} ${d.wins} ${d.podiums}`),
		);
		expect(body.rows.map((r) => `${r.player} ${r.points}`).slice(0, 3)).toEqual(['Bob 16', 'Ann 14', 'Cy 10']);
		expect(body.rows[0]).toMatchObject({ wins: 1, podiums: 2, races: 2 });
		expect(body.rows[0]!.id).toMatch(/^#\d+$/);
		expect(JSON.stringify(body)).not.toMatch(/8\d{17}/); // no Discord id

		const past = (await get(`/api/v1/leagues/${path}/championship?season=2025`)).json<Available>();
		const service2025 = await w.services.standings.table(member, { season: '2025' });
		expect(past.rows.map((r) => [r.player, r.points])).toEqual(service2025.drivers.map((d) => [d.name, d.points]));
		expect(past.rows[0]).toMatchObject({ player: 'Dan', points: 10 });

		const unknown = await get(`/api/v1/leagues/${path}/championship?season=1999`);
		expect(unknown.statusCode).toBe(404);
		expect(unknown.json()).toEqual({
			status: 'not-found',
			message: 'Kart has no season “1999”: its seasons are 2025, 2026.',
		});
	});

	it('the league page shows the top of the current table and links to the full one; that page has every row', async () => {
		const { w, path } = await kart();
		const get = serve(w);
		const page = await get(`/leagues/${path}`);
		expect(page.body).toContain('<h2>Championship 2026</h2>');
		const service = await w.services.standings.table(member, {});
		const shown = tableRows(page.body, '<h2>Championship 2026</h2>');
		expect(shown).toEqual(
			service.drivers.map((d) => [String(d.place), d.name, String(d.points), String(d.wins), String(d.podiums)]),
		);
		expect(page.body).toContain('2 races counted · 10,6,4,3 points');
		expect(page.body).toContain(`href="/leagues/${path}/championship?season=2026"`);

		const full = await get(`/leagues/${path}/championship?season=2026`);
		expect(full.statusCode).toBe(200);
		expect(tableRows(full.body, '<h1>').map((r) => r.slice(0, 6))).toEqual(
			service.drivers.map((d) => [
				String(d.place),
				d.name,
				String(d.points),
				String(d.wins),
				String(d.podiums),
				String(d.races),
			]),
		);
		expect(full.body).toContain(`href="/leagues/${path}/championship?season=2025"`);
		const missing = await get(`/leagues/${path}/championship?season=1999`);
		expect(missing.statusCode).toBe(404);
		expect(missing.body).toContain('Kart has no season “1999”: its seasons are 2025, 2026.');
		// Kept 404 too (the answer is kept by version).
		expect((await get(`/leagues/${path}/championship?season=1999`)).statusCode).toBe(404);
	});

	it('a league without a race has no season: the page shows no table, the JSON answers why', async () => {
		const w = world(createMemoryStore());
		const league = await w.services.leagues.create(organizer, { name: 'Undated' });
		await w.services.leagues.configure(organizer, undefined, { visibility: 'public' });
		const get = serve(w);
		const res = await get(`/api/v1/leagues/${encodeURIComponent(league.id)}/championship`);
		expect(res.statusCode).toBe(200);
		const body = res.json<WebChampionship>();
		expect(body).toMatchObject({ available: false, seasons: [] });
		expect(!body.available && body.reason).toContain('no season yet');
		const page = await get(`/leagues/${encodeURIComponent(league.id)}`);
		expect(page.statusCode).toBe(200);
		expect(page.body).not.toContain('<h2>Championship');
	});

	it('a league whose races carry no dates: its whole history as one table, as /standings shows it', async () => {
		const w = world(createMemoryStore());
		const league = await w.services.leagues.create(organizer, { name: 'Undated' });
		await w.services.leagues.configure(organizer, undefined, { visibility: 'public' });
		const entry = (player: string, position: number) => ({ player, position, status: 'finished' as const });
		await w.repo.appendEvent(league.id, {
			type: 'league-imported',
			source: 'test',
			by: organizer.userId,
			races: [
				{ entries: [entry('Ann', 1), entry('Bob', 2)] },
				{ entries: [entry('Bob', 1), entry('Cy', 2), entry('Ann', 3)] },
			],
		});
		const body = (
			await serve(w)(`/api/v1/leagues/${encodeURIComponent(league.id)}/championship`)
		).json<WebChampionship>();
		const standings = await w.services.standings.table(member, {});
		if (!body.available) throw new Error(body.reason);
		expect(body.season.name).toBe('All races (undated)');
		// F1 points: Bob 18 + 25, Ann 25 + 15, Cy 18.
		expect(body.rows.map((r) => [r.place, r.player, r.points])).toEqual([
			[1, 'Bob', 43],
			[2, 'Ann', 40],
			[3, 'Cy', 18],
		]);
		expect(body.rows.map((r) => r.points)).toEqual(standings.drivers.map((d) => d.points));
	});
});

describe('a burst of requests for a version nobody has read', () => {
	it('reads the standings once (single flight), whatever the number of requests', async () => {
		const { w, path } = await kart();
		let reads = 0;
		const counting: LeaderboardService = {
			...w.services.leaderboard,
			page: (actor, input) => {
				if (input.system === 'glicko' && input.page === 1) reads++;
				return w.services.leaderboard.page(actor, input);
			},
		};
		const get = serve(w, counting);
		const answers = await Promise.all([
			...Array.from({ length: 6 }, () => get(`/api/v1/leagues/${path}/standings`)),
			...Array.from({ length: 6 }, (_, i) => get(`/leagues/${path}?page=${i + 1}`)),
			...Array.from({ length: 4 }, () => get(`/leagues/${path}/players/1`)),
		]);
		expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
		expect(reads).toBe(1);
		// A new race: a new version, read once more.
		await addRace(w, '1. Cy\n2. Ann', undefined, '2026-02-15');
		await Promise.all(Array.from({ length: 5 }, () => get(`/api/v1/leagues/${path}/standings`)));
		expect(reads).toBe(2);
	});
});
