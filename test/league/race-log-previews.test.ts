import { describe, expect, it } from 'vitest';
import type { LeagueEvent, RaceInput } from '../../src/league/league-events.js';
import { createLeagueLog, LeagueError, type LeagueLog, type LeagueLogSnapshot } from '../../src/league/race-log.js';

/**
 * The preview id in race-submitted and race-edited events: the log knows which race each confirmed
 * preview became, through edits, merges and a JSON snapshot, and refuses a new event reusing a preview id.
 */

const config = { guildId: 'g', name: 'Main', headline: 'glicko', params: {}, timezone: 'UTC' };
const race = (...names: string[]): RaceInput => ({
	date: '2024-05-01',
	entries: names.map((player, i) => ({ player, position: i + 1, status: 'finished' as const })),
});
const meta = { by: 'u1', at: '2024-05-01T10:00:00.000Z' };
const append = (log: LeagueLog, event: LeagueEvent) => log.apply({ ...event, seq: log.seq() + 1 });

function league(): LeagueLog {
	const log = createLeagueLog();
	append(log, { type: 'league-configured', config, ...meta });
	append(log, { type: 'race-submitted', race: race('A', 'B'), preview: 'p1', ...meta });
	append(log, { type: 'race-submitted', race: race('B', 'C'), ...meta }); // stored without a preview (CLI, console)
	append(log, { type: 'race-submitted', race: race('C', 'A'), preview: 'p2', ...meta });
	return log;
}

describe('race log: confirmed previews', () => {
	it('finds the race each preview became; a race stored without one has none', () => {
		const log = league();
		expect(log.storedPreview('p1')).toEqual({ race: 'R1', kind: 'submitted' });
		expect(log.storedPreview('p2')).toEqual({ race: 'R3', kind: 'submitted' });
		expect(log.storedPreview('p3')).toBeUndefined();
		expect(log.race('R2')!.preview).toBeUndefined();
	});

	it('refuses a new race or edit reusing a stored preview id, naming the race; nothing changes', () => {
		const log = league();
		const again: LeagueEvent = { type: 'race-submitted', race: race('D', 'E'), preview: 'p2', ...meta };
		expect(() => log.check(again)).toThrow(LeagueError);
		expect(() => log.check(again)).toThrow('this preview was already stored as R3');
		const edit: LeagueEvent = { type: 'race-edited', race: 'R1', reason: 'swap', changes: race('B', 'A'), ...meta };
		append(log, { ...edit, preview: 'e1' });
		expect(log.storedPreview('e1')).toEqual({ race: 'R1', kind: 'edited' });
		expect(() => log.check({ ...edit, race: 'R3', preview: 'e1' })).toThrow('already confirmed as an edit of R1');
		expect(log.races()).toHaveLength(3);
		expect(log.race('R3')!.edits).toEqual([]);
	});

	it('an edit, a void and a merge keep the race’s preview; a JSON snapshot carries them all', () => {
		const log = league();
		append(log, { type: 'race-edited', race: 'R1', reason: 'swap', changes: race('B', 'A'), preview: 'e1', ...meta });
		append(log, { type: 'race-voided', race: 'R3', reason: 'dup', ...meta });
		append(log, { type: 'player-renamed', player: '#1', name: 'Ann', ...meta });
		append(log, { type: 'alias-added', player: '#3', alias: 'Cee', ...meta });
		append(log, { type: 'race-submitted', race: race('Dee', 'Ann'), preview: 'p4', ...meta });
		append(log, { type: 'players-merged', from: 'Dee', into: 'Cee', ...meta });
		const restored = createLeagueLog(JSON.parse(JSON.stringify(log.snapshot())) as LeagueLogSnapshot);
		for (const l of [log, restored]) {
			expect(['p1', 'e1', 'p2', 'p4'].map((id) => l.storedPreview(id))).toEqual([
				{ race: 'R1', kind: 'submitted' },
				{ race: 'R1', kind: 'edited' },
				{ race: 'R3', kind: 'submitted' },
				{ race: 'R4', kind: 'submitted' },
			]);
		}
		expect(() => restored.check({ type: 'race-submitted', race: race('X', 'Y'), preview: 'p4', ...meta })).toThrow(
			/already stored as R4/,
		);
	});
});
