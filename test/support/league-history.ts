import { readFileSync } from 'node:fs';
import { parseHistoryCsv, writeHistoryCsv } from '../../src/formats/history-csv.js';
import type { Race } from '../../src/ratings/types.js';
import type { LeagueRepository } from '../../src/storage/ports.js';

/** Histories for the tests that check a league against the `pitwall` CLI on the same races. */

const sampleText = readFileSync(new URL('../../data/sample-league.csv', import.meta.url), 'utf8');

/** A league's confirmed races as a history CSV with player names, as `pitwall` reads it. */
export async function leagueHistoryCsv(repo: LeagueRepository, league: string): Promise<string> {
	const state = await repo.loadState(league);
	const races: Race[] = state.ratedRaces().map(({ race }) => ({
		...race,
		entries: race.entries.map((e) => ({ ...e, player: state.resolve(e.player)!.name })),
	}));
	return writeHistoryCsv(races);
}

/**
 * The first `n` ZakStunts races of the sample league, dated a month apart from 2019-11 so that a yearly reset falls
 * inside them (the sample has no dates), as a history CSV.
 */
export function datedSample(n: number): string {
	const races = parseHistoryCsv(sampleText, 'sample-league.csv').slice(0, n);
	const lines = races.flatMap((race, i) => {
		const date = new Date(Date.UTC(2019, 10 + i, 1)).toISOString().slice(0, 10);
		return race.entries.map((e) => `${race.id},${date},"${e.player.replaceAll('"', '""')}",${e.position}`);
	});
	return ['race,date,player,position', ...lines].join('\n') + '\n';
}
