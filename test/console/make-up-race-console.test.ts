/** A make-up race typed in the console: the preview names the races it moves, and /rating reads the date-order replay. */
import { describe, expect, it } from 'vitest';
import { fmtRating } from '../../commands/shared.js';
import { replayHistory } from '../../src/league/replay.js';
import { standingsAsOf } from '../../src/league/standings.js';
import { getSystem } from '../../src/ratings/index.js';
import type { Race } from '../../src/ratings/types.js';
import { leagueParams } from '../support/league-params.js';
import { consoleActor, consoleWorld } from './console-session.js';

describe('a make-up race in the console', () => {
	it('is previewed on the ratings of its date, names R2–R3, and /rating then shows the replay by date', async () => {
		const { repo, services, type } = consoleWorld(() => new Date('2026-03-20T12:00:00Z'));
		const league = (await services.leagues.create(consoleActor, { name: 'Sunday Cup', headline: 'glicko' })).id;
		const { code, out } = await type([
			'/race submit results:"1. Alice; 2. Bob; 3. Carol" date:2026-03-01',
			'confirm',
			'/race submit results:"1. Bob; 2. Carol; 3. Alice" date:2026-03-08',
			'confirm',
			'/race submit results:"1. Carol; 2. Alice; 3. Bob" date:2026-03-15',
			'confirm',
			'/race submit results:"1. Bob; 2. Alice" date:2026-03-05',
			'confirm',
			'/rating player:Bob',
		]);
		expect(code).toBe(0);
		expect(out).not.toContain('error:');
		expect(out).toContain('Check: - Dated 2026-03-05, before R2–R3 already rated: their ratings will be recomputed.');
		expect(out).toContain('Stored as R4 in Sunday Cup.');

		// The reference: the stored races sorted by date (R1, R4, R2, R3), replayed from scratch.
		const state = await repo.loadState(league);
		const races: Race[] = state
			.races()
			.map((r) => ({ id: r.id, date: r.date, entries: r.entries }))
			.sort((a, b) => a.date!.localeCompare(b.date!));
		expect(races.map((r) => r.id)).toEqual(['R1', 'R4', 'R2', 'R3']);
		const glicko = getSystem('glicko');
		const params: unknown = leagueParams(glicko);
		const bob = state.resolve('Bob')!.id;
		let change: { before: number; after: number } | undefined;
		replayHistory(glicko, params, races, {}, (o) => {
			const c = o.changes.find((x) => x.player === bob);
			if (o.race.id === 'R4' && c !== undefined) change = { before: c.before.rating, after: c.after.rating };
		});
		// The preview of R4 rates Bob on his rating of 5 March (after R1 alone), as confirming did.
		expect(out).toContain(`1. Bob (exp. `);
		expect(out).toContain(`— ${fmtRating(change!.before)} → ${fmtRating(change!.after)} (`);
		const standing = standingsAsOf(glicko, params, races, '2026-03-20').find((s) => s.player === bob)!;
		expect(out).toContain(`Rating: ${fmtRating(standing.rating)} · RD: ${fmtRating(standing.uncertainty!)}`);
	});
});
