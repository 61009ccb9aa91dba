/**
 * The league web pages in a real browser: Debian's headless Chromium (/usr/bin/chromium, `scripts/setup.sh --test`)
 * driven by playwright-core, against the bot's own HTTP server on 127.0.0.1 over a memory store with a public league
 * and real races. From `/`, the link to the league, then the leader's link to their page; on a phone-sized and a
 * desktop window, in the light and the dark color scheme. Every number shown is the JSON API's for the same league and
 * system (as the bot rounds it); the page fits the window (only the tables scroll sideways); the color scheme is
 * followed. Screenshots go to a temporary directory; with PITWALL_DOCS_IMAGES=1 the league page's also to
 * docs/images/league-page-phone.png and league-page-desktop.png (the README's). Skips when Chromium is absent.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shownSummary, uncertaintyText } from '../../src/formats/rating-scale.js';
import { startHttpServer, type RunningHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/logger.js';
import { systems } from '../../src/ratings/index.js';
import {
	createLeagueWebService,
	type WebChampionship,
	type WebForecast,
	type WebRaceDetail,
	type WebStanding,
	type WebStandings,
} from '../../src/services/web/league-web-service.js';
import { leagueScale } from '../../src/services/ratings/shown-scale.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { LeagueInfo } from '../../src/storage/ports.js';
import { addRace, organizer, world } from '../services/helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present) console.warn(`test/browser: skipped, ${CHROMIUM} is absent (scripts/setup.sh --test installs chromium)`);

/** As on this machine (/work/.library/env/machines/node.md); playwright adds --headless, --no-sandbox and a new empty
 * --user-data-dir of its own, removed when the browser closes. */
const ARGS = [
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

const WINDOWS = [
	{ name: 'phone', viewport: { width: 390, height: 844 } },
	{ name: 'desktop', viewport: { width: 1280, height: 800 } },
] as const;
const SCHEMES = ['light', 'dark'] as const;
/** The body's background in each scheme (pages/templates.ts). */
const BACKGROUND = { light: 'rgb(255, 255, 255)', dark: 'rgb(19, 19, 22)' };
/** Which screenshot of the league page the README shows, per window. */
const DOCS = { phone: 'dark', desktop: 'light' } as const;

const RACES: readonly [string, string][] = [
	// Last year's races: the forecast counts this year's races left from them.
	['2025-05-04', '1. Bruno Tanaka\n2. Alice Moreau\n3. Chiara Rossi\n4. Dev Patel\n5. Emil Larsen\n'],
	['2025-06-01', '1. Chiara Rossi\n2. Dev Patel\n3. Alice Moreau\n4. Femi Okafor\n5. Bruno Tanaka\n'],
	['2025-07-06', '1. Alice Moreau\n2. Chiara Rossi\n3. Bruno Tanaka\n4. Gwen Hughes\n'],
	['2025-08-03', '1. Dev Patel\n2. Bruno Tanaka\n3. Alice Moreau\n4. Hana Novak\n5. Emil Larsen\n'],
	['2025-09-07', '1. Bruno Tanaka\n2. Chiara Rossi\n3. Femi Okafor\n4. Alice Moreau\n'],
	['2025-10-05', '1. Chiara Rossi\n2. Alice Moreau\n3. Dev Patel\n4. Gwen Hughes\n5. Bruno Tanaka\n'],
	['2025-11-02', '1. Alice Moreau\n2. Dev Patel\n3. Emil Larsen\n4. Chiara Rossi\n'],
	['2025-12-07', '1. Bruno Tanaka\n2. Alice Moreau\n3. Hana Novak\n4. Dev Patel\n5. Femi Okafor\n'],
	['2026-01-11', '1. Alice Moreau\n2. Bruno Tanaka\n3. Chiara Rossi\n4. Dev Patel\n5. Emil Larsen\n6. Femi Okafor\n'],
	[
		'2026-01-18',
		'1. Bruno Tanaka\n2. Alice Moreau\n3. Dev Patel\n4. Gwen Hughes\n5. Chiara Rossi\n6. Emil Larsen DNF\n',
	],
	['2026-01-25', '1. Chiara Rossi\n2. Alice Moreau\n3. Bruno Tanaka\n4. Femi Okafor\n5. Hana Novak\n'],
	['2026-02-01', '1. Alice Moreau\n2. Dev Patel\n3. Chiara Rossi\n4. Bruno Tanaka\n5. Gwen Hughes\n6. Emil Larsen\n'],
	['2026-02-08', '1. Dev Patel\n2. Alice Moreau\n3. Femi Okafor\n4. Chiara Rossi\n5. Bruno Tanaka\n6. Hana Novak\n'],
	['2026-02-15', '1. Alice Moreau\n2. Chiara Rossi\n3. Bruno Tanaka\n4. Dev Patel\n5. Emil Larsen\n6. Gwen Hughes\n'],
];

/** A row's cells as the page shows them, from the API's raw numbers and the system's scale (rating-scale.ts). */
function expectedCells(league: LeagueInfo, system: string, row: WebStanding) {
	const scale = leagueScale(league, system);
	const shown = shownSummary(scale, { rating: row.rating, uncertainty: row.uncertainty ?? undefined });
	return {
		rank: String(row.rank),
		rating: shown.rating.toFixed(1),
		uncertainty: shown.uncertainty === undefined ? '' : uncertaintyText(scale, shown.uncertainty),
		races: String(row.races),
	};
}

/** A shown change: `+12.3`, `−4.0` (a typographic minus, as the bot writes it). */
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}`;
/** A probability as the bot writes it (commands/shared.ts fmtPct). */
const pct = (p: number) => (p > 0 && p < 0.001 ? '<0.1%' : p > 0.999 && p < 1 ? '>99.9%' : `${(p * 100).toFixed(1)}%`);

/**
 * The text of every cell of a table body, row by row (locators: the tests compile without the DOM's types): the
 * page's only table, or the one under the heading that starts with `heading`.
 */
async function tableCells(page: Page, heading?: string): Promise<string[][]> {
	const table =
		heading === undefined
			? page.locator('table')
			: page.locator(
					`h2:text-matches("^${heading}") + div.scroll table, h2:text-matches("^${heading}") + nav + div.scroll table`,
				);
	const rows = await table.locator('tbody tr').all();
	return Promise.all(rows.map(async (tr) => (await tr.locator('td').allTextContents()).map((t) => t.trim())));
}

/**
 * Whether any table overflows its scrolling box (a phone then scrolls it sideways): the widest overflow in pixels, 0
 * when every table fits.
 */
const tableOverflow = (page: Page) =>
	page.evaluate<number>(
		'Math.max(0, ...[...document.querySelectorAll("div.scroll")].map((d) => d.scrollWidth - d.clientWidth))',
	);

describe.skipIf(!present)(`league pages in Chromium${present ? '' : ` (skipped: ${CHROMIUM} is absent)`}`, () => {
	let server: RunningHttpServer | undefined;
	let browser: Browser | undefined;
	let league: LeagueInfo;
	// PITWALL_SHOTS=<dir> keeps the screenshots there (to look at them); else a temporary directory, removed.
	const kept = process.env['PITWALL_SHOTS'];
	const shots = kept ?? mkdtempSync(join(tmpdir(), 'pitwall-browser-'));

	beforeAll(async () => {
		const w = world(createMemoryStore());
		await w.services.leagues.create(organizer, { name: 'Sunday Sprint Cup', headline: 'glicko' });
		for (const [date, text] of RACES) await addRace(w, text, undefined, date);
		await w.services.leagues.configure(organizer, undefined, { visibility: 'public' });
		league = (await w.repo.listAllLeagues())[0]!;
		const web = createLeagueWebService(w.repo, w.services.leaderboard, () => new Date(w.now.ms));
		server = await startHttpServer({
			log: createLogger({ level: 'silent', write: () => {} }),
			web,
			host: '127.0.0.1',
			port: 0,
		});
		browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
	});

	afterAll(async () => {
		await browser?.close();
		await server?.close();
		if (kept === undefined) rmSync(shots, { recursive: true, force: true });
	});

	const api = async (path: string): Promise<WebStandings> => {
		const res = await fetch(new URL(path, server!.url));
		expect(res.status).toBe(200);
		return (await res.json()) as WebStandings;
	};

	for (const win of WINDOWS) {
		for (const scheme of SCHEMES) {
			it(`${win.name} ${win.viewport.width}×${win.viewport.height}, ${scheme}: / → league → player, numbers as the API's`, async () => {
				const context = await browser!.newContext({ viewport: win.viewport, colorScheme: scheme });
				try {
					const page = await context.newPage();
					const fits = async () => {
						const scroll = await page.evaluate<number>('document.documentElement.scrollWidth');
						const width = await page.evaluate<number>('window.innerWidth');
						expect(scroll).toBeLessThanOrEqual(width);
						expect(await page.evaluate<string>('getComputedStyle(document.body).backgroundColor')).toBe(
							BACKGROUND[scheme],
						);
					};

					// The home page lists the league; its link opens the league's page.
					expect((await page.goto(server!.url + '/'))!.status()).toBe(200);
					await fits();
					await page.getByRole('link', { name: 'Sunday Sprint Cup' }).click();
					await page.waitForURL(`**/leagues/${encodeURIComponent(league.id)}`);
					expect(await page.locator('h1').textContent()).toBe('Sunday Sprint Cup');
					await fits();

					// The leaderboard: every row as the API's standings of the headline system, in order.
					const jsonHref = await page.getByRole('link', { name: 'JSON' }).getAttribute('href');
					const standings = await api(jsonHref!);
					expect(standings.system).toBe('glicko');
					expect(standings.rows.length).toBeGreaterThan(5);
					const rows = await tableCells(page, 'Leaderboard');
					expect(rows).toEqual(
						standings.rows.map((r) => {
							const cells = expectedCells(league, 'glicko', r);
							return [cells.rank, r.player + (r.provisional ? '†' : ''), cells.rating, cells.uncertainty, cells.races];
						}),
					);
					// Glicko is shown as computed: the rating and RD to one decimal.
					const leader = standings.rows[0]!;
					expect(Number(rows[0]![2])).toBeCloseTo(leader.rating, 1);
					expect(Number(rows[0]![3])).toBeCloseTo(leader.uncertainty!, 1);
					expect(await page.locator('p.meta').first().textContent()).toContain(
						`glicko · as of ${standings.asOf} · ${standings.rows.length} players`,
					);
					// The championship's top: the JSON's table (the service's /standings), points, wins and podiums.
					const table = (await (
						await fetch(new URL(`/api/v1/leagues/${encodeURIComponent(league.id)}/championship`, server!.url))
					).json()) as Extract<WebChampionship, { available: true }>;
					expect(table.season.name).toBe('2026');
					const top = table.rows.slice(0, 10);
					const championshipRows = top.map((r) => [
						`${r.place}${r.shared ? '=' : ''}`,
						r.player,
						String(r.points),
						String(r.wins),
						String(r.podiums),
					]);
					expect(await tableCells(page, 'Championship 2026')).toEqual(championshipRows);
					if (win.name === 'phone') expect(await tableOverflow(page)).toBe(0);
					await page.screenshot({ path: join(shots, `league-${win.name}-${scheme}.png`), fullPage: true });
					if (process.env['PITWALL_DOCS_IMAGES'] === '1' && DOCS[win.name] === scheme) {
						const docs = join(import.meta.dirname, '..', '..', 'docs', 'images', `league-page-${win.name}.png`);
						await page.screenshot({ path: docs, fullPage: win.name === 'phone' });
					}

					// The leader's link opens their page: their row in every system, as each system's API standings.
					await page
						.locator('h2:text-matches("^Leaderboard") + nav + div.scroll table')
						.getByRole('link', { name: leader.player, exact: true })
						.click();
					await page.waitForURL(`**/players/${leader.id.replace(/^#/, '')}`);
					expect(await page.locator('h1').textContent()).toBe(leader.player);
					await fits();
					const mine = await tableCells(page);
					const expected: string[][] = [];
					for (const system of Object.keys(systems)) {
						const all = await api(
							`/api/v1/leagues/${encodeURIComponent(league.id)}/standings?system=${encodeURIComponent(system)}`,
						);
						const row = all.rows.find((r) => r.id === leader.id);
						if (row === undefined) {
							expected.push([system, 'not on the leaderboard']);
							continue;
						}
						const cells = expectedCells(league, system, row);
						expected.push([
							system,
							cells.rank,
							cells.rating + (row.provisional ? '†' : ''),
							cells.uncertainty,
							cells.races,
						]);
					}
					expect(mine).toEqual(expected);
					if (win.name === 'phone') expect(await tableOverflow(page)).toBe(0);
					const glicko = mine.find((cells) => cells[0] === 'glicko')!;
					expect(glicko.slice(1, 3)).toEqual(['1', leader.rating.toFixed(1) + (leader.provisional ? '†' : '')]);
					// The rating history chart is drawn (an inline SVG, no script), with a dot per rated race.
					expect(await page.locator('svg.chart circle.dot').count()).toBe(leader.races);
					expect(await page.locator('script').count()).toBe(0);
					await page.screenshot({ path: join(shots, `player-${win.name}-${scheme}.png`), fullPage: true });
					await page.screenshot({ path: join(shots, `player-top-${win.name}-${scheme}.png`) });

					// Back on the league page, the latest race's link opens its page: the table as the race's JSON.
					await page.goBack();
					const raceLink = page.locator('ul li a[href*="/races/"]').first();
					const raceHref = (await raceLink.getAttribute('href'))!;
					await raceLink.click();
					await page.waitForURL(`**${raceHref}`);
					await fits();
					const race = (await (await fetch(new URL(`/api/v1${raceHref}`, server!.url))).json()) as Omit<
						WebRaceDetail,
						'why'
					>;
					const scale = leagueScale(league, 'glicko');
					const shownNumber = (raw: number) => scale.rating(raw).toFixed(1);
					// No time in these races: no Time column.
					expect(await tableCells(page)).toEqual(
						race.results.map((r) => [
							r.status === 'finished' ? String(r.position) : r.status,
							r.player,
							...(r.rating === null
								? ['not rated']
								: [
										r.rating.expectedPlace === null ? '' : r.rating.expectedPlace.toFixed(2),
										`${shownNumber(r.rating.before)} → ${shownNumber(r.rating.after)}`,
										signed(Number(shownNumber(r.rating.after)) - Number(shownNumber(r.rating.before))),
									]),
						]),
					);
					if (win.name === 'phone') expect(await tableOverflow(page)).toBe(0);
					await page.screenshot({ path: join(shots, `race-${win.name}-${scheme}.png`), fullPage: true });
					await page.screenshot({ path: join(shots, `race-top-${win.name}-${scheme}.png`) });
					// A racer's name opens their page.
					const second = race.results[1]!;
					await page.getByRole('link', { name: second.player, exact: true }).first().click();
					await page.waitForURL(`**/players/${second.id.replace(/^#/, '')}`);
					expect(await page.locator('h1').textContent()).toBe(second.player);

					// The forecast, from the league page: /forecast's numbers (the JSON, from the same service).
					await page.goto(new URL(`/leagues/${encodeURIComponent(league.id)}`, server!.url).href);
					await page.getByRole('link', { name: 'Championship forecast' }).click();
					await page.waitForURL('**/forecast');
					await fits();
					const forecast = (await (
						await fetch(new URL(`/api/v1/leagues/${encodeURIComponent(league.id)}/forecast`, server!.url))
					).json()) as WebForecast;
					expect(forecast.available).toBe(true);
					if (forecast.available) {
						const cells = await tableCells(page);
						expect(cells.map((c) => [c[1], c[2], c[4], c[5]])).toEqual(
							forecast.rows.map((r) => [r.player, String(r.pointsNow), pct(r.pTop3), r.expectedPoints.toFixed(1)]),
						);
					}
					await page.screenshot({ path: join(shots, `forecast-${win.name}-${scheme}.png`), fullPage: true });
					// The full championship table, from the league page's link: every row of the JSON.
					await page.goto(new URL(`/leagues/${encodeURIComponent(league.id)}`, server!.url).href);
					await page.locator('a[href*="/championship?season="]').first().click();
					await page.waitForURL('**/championship?season=2026');
					await fits();
					expect(await page.locator('h1').textContent()).toBe('Championship 2026');
					const full = await tableCells(page);
					expect(full.map((c) => c.slice(0, 6))).toEqual(
						table.rows.map((r) => [
							`${r.place}${r.shared ? '=' : ''}`,
							r.player,
							String(r.points),
							String(r.wins),
							String(r.podiums),
							String(r.races),
						]),
					);
					if (win.name === 'phone') expect(await tableOverflow(page)).toBe(0);
					await page.screenshot({ path: join(shots, `championship-${win.name}-${scheme}.png`), fullPage: true });
				} finally {
					await context.close();
				}
			});
		}
	}
});
