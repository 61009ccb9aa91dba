/**
 * New leagues start from the defaults chosen for leagues (src/league/league-defaults.ts): written into
 * the created league's configuration, so that the league's ratings are the CLI's with those `--param` values, while
 * a league stored before keeps its own (empty) parameters and the reference defaults.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { leagueHistoryCsv } from '../support/league-history.js';
import { main } from '../../src/cli/main.js';
import { ensureSampleLeague } from '../../src/console/sample-league.js';
import { LEAGUE_DEFAULTS } from '../../src/league/league-defaults.js';
import { getSystem, raceSystems } from '../../src/ratings/index.js';
import { leagueParamArgs } from '../support/league-params.js';
import { addRace, GUILD, member, organizer, world, type World } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pitwall-defaults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const DAY = 86_400_000;

/** Four races months apart, so that the idle-time parameters (glicko c, endure φ) act. */
async function fill(w: World, league: string): Promise<void> {
	const fields = [
		'1. Alice\n2. Bob\n3. Carol',
		'1. Bob\n2. Carol\n3. Dave',
		'1. Dave\n2. Alice',
		'1. Carol\n2. Alice\n3. Bob',
	];
	for (const text of fields) {
		await addRace(w, text, league);
		w.now.ms += 120 * DAY;
	}
}

/** The league's confirmed races as a history CSV file with player names. */
async function historyFile(w: World, league: string, name: string): Promise<string> {
	const path = join(dir, name);
	writeFileSync(path, await leagueHistoryCsv(w.repo, league));
	return path;
}

async function cliReplay(...argv: string[]): Promise<string[][]> {
	let out = '';
	const code = await main(['replay', ...argv], { out: (t) => void (out += t), err: () => undefined });
	expect(code).toBe(0);
	return out
		.trimEnd()
		.split('\n')
		.slice(1)
		.map((line) => line.split(',').slice(0, 3));
}

async function board(w: World, league: string, system: string): Promise<string[][]> {
	const page = await w.services.leaderboard.page(member, { league, system });
	return page.rows.map((r) => [r.name, String(r.rating), r.uncertainty === undefined ? '' : String(r.uncertainty)]);
}

describe('LEAGUE_DEFAULTS', () => {
	it('are valid overrides of known systems, each different from the reference default', () => {
		expect(Object.keys(LEAGUE_DEFAULTS).length).toBeGreaterThan(0);
		for (const [id, overrides] of Object.entries(LEAGUE_DEFAULTS)) {
			const system = getSystem(id);
			const reference = system.params() as Record<string, unknown>;
			const chosen = system.params(overrides) as Record<string, unknown>;
			for (const [name, value] of Object.entries(overrides)) {
				expect(chosen[name], `${id}.${name}`).toBe(value);
				expect(reference[name], `${id}.${name}`).not.toBe(value);
			}
		}
	});
});

describe('a league created from now on', () => {
	it('carries the defaults in its configuration, and its ratings are the CLI’s with those --param values', async () => {
		const w = world();
		const info = await w.services.leagues.create(organizer, { name: 'Cup' });
		expect(info.config.params).toEqual(LEAGUE_DEFAULTS);
		expect((await w.services.leagues.info(member, 'Cup')).info.config.params).toEqual(LEAGUE_DEFAULTS);
		await fill(w, 'Cup');
		const file = await historyFile(w, info.id, 'cup.csv');
		const day = (await w.services.leaderboard.page(member, { league: 'Cup' })).asOf;
		for (const { id } of raceSystems) {
			const shown = await board(w, 'Cup', id);
			expect(shown, id).toEqual(
				await cliReplay('--system', id, '--input', file, '--as-of', day, ...leagueParamArgs(id)),
			);
			// The parameters matter here: the reference defaults give other ratings for every system they change.
			const reference = await cliReplay('--system', id, '--input', file, '--as-of', day);
			if (LEAGUE_DEFAULTS[id] !== undefined) expect(shown, id).not.toEqual(reference);
			else expect(shown, id).toEqual(reference);
		}
	});

	it('the first-run sample league is created with them too', async () => {
		const w = world();
		const { league } = await ensureSampleLeague(w.repo, GUILD);
		expect(league.config.params).toEqual(LEAGUE_DEFAULTS);
	});

	it('a league stored before keeps its own parameters: the reference defaults, as the CLI without --param', async () => {
		const w = world();
		const old = await w.repo.createLeague(
			{ guildId: GUILD, name: 'Old', headline: 'glicko', params: {}, timezone: 'UTC' },
			organizer.userId,
		);
		await fill(w, 'Old');
		expect((await w.repo.getLeague(old.id))!.config.params).toEqual({});
		const file = await historyFile(w, old.id, 'old.csv');
		const day = (await w.services.leaderboard.page(member, { league: 'Old' })).asOf;
		for (const id of ['glicko', 'endure']) {
			expect(await board(w, 'Old', id), id).toEqual(await cliReplay('--system', id, '--input', file, '--as-of', day));
		}
	});
});
