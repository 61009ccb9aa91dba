import { describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../../src/league/league-events.js';
import {
	createLeagueLog,
	createLeagueLogInSteps,
	LeagueError,
	type LeagueLogSnapshot,
} from '../../src/league/race-log.js';
import { config, randomRaces } from '../storage/helpers.js';

/**
 * LeagueLog.checkInSteps and applyInSteps: a big import is checked and folded in steps (the repository lets the event
 * loop run between them), with the same answer as check and apply, and nothing changed until the last step.
 */

const AT = '2026-01-01T00:00:00Z';
const configured = (): LoggedEvent => ({ type: 'league-configured', config: config('Steps'), by: 'o', at: AT, seq: 0 });
const imported = (n: number): Extract<LoggedEvent, { type: 'league-imported' }> => ({
	type: 'league-imported',
	races: randomRaces(7, n, 30),
	source: 'steps.csv',
	by: 'o',
	at: AT,
	seq: 1,
});

/** Run a generator of steps to its end; the number of pauses and the result. */
function run<T>(steps: Generator<void, T>): { pauses: number; value: T } {
	let pauses = 0;
	for (;;) {
		const next = steps.next();
		if (next.done === true) return { pauses, value: next.value };
		pauses++;
	}
}

describe('a big import in steps', () => {
	it('checks and folds to what check and apply give, pausing between slices of races', () => {
		const whole = createLeagueLog();
		whole.apply(configured());
		const stepped = createLeagueLog();
		stepped.apply(configured());
		const event = imported(1_000);
		const checked = run(stepped.checkInSteps(event));
		expect(checked.value).toEqual(whole.check(event));
		expect(checked.pauses).toBeGreaterThanOrEqual(4); // 1,000 races: several slices, not one block
		const applied = run(stepped.applyInSteps(event));
		expect(applied.value).toEqual(whole.apply(event));
		expect(stepped.snapshot()).toEqual(whole.snapshot());
		expect(stepped.races()).toHaveLength(1_000);
	});

	it('changes nothing until its last step: a fold stopped halfway leaves the log as it was', () => {
		const log = createLeagueLog();
		log.apply(configured());
		const before = log.snapshot();
		const steps = log.applyInSteps(imported(1_000));
		steps.next();
		steps.next();
		expect(log.snapshot()).toEqual(before);
		expect(log.seq()).toBe(0);
	});

	it('refuses a bad race deep in the import as check does, naming it', () => {
		const log = createLeagueLog();
		log.apply(configured());
		const event = imported(1_000);
		const races = [...event.races];
		races[800] = { ...races[800]!, entries: [] };
		const bad = { ...event, races };
		const message = (() => {
			try {
				log.check(bad);
			} catch (error) {
				return (error as Error).message;
			}
			return 'checked';
		})();
		expect(message).toContain('R801');
		expect(() => run(log.checkInSteps(bad))).toThrow(LeagueError);
		expect(() => run(log.checkInSteps(bad))).toThrow(message);
		expect(log.races()).toEqual([]);
	});

	it('other events take one step', () => {
		const log = createLeagueLog();
		const { pauses } = run(log.applyInSteps(configured()));
		expect(pauses).toBe(0);
		expect(log.config()?.name).toBe('Steps');
	});
});

describe('a long history opened from its snapshot in steps', () => {
	it('builds the log its events fold into, pausing between slices of races', () => {
		const folded = createLeagueLog();
		folded.apply(configured());
		folded.apply(imported(3_500));
		folded.apply({ type: 'race-voided', race: 'R7', reason: 'x', by: 'o', at: AT, seq: 2 });
		const stored = JSON.parse(JSON.stringify(folded.snapshot())) as LeagueLogSnapshot;
		const opened = run(createLeagueLogInSteps(stored));
		expect(opened.pauses).toBeGreaterThanOrEqual(3); // 3,500 races: several steps, not one block
		const log = opened.value;
		expect(log.snapshot()).toEqual(folded.snapshot());
		expect(log.ratedRaces()).toEqual(folded.ratedRaces());
		expect(log.ratedRacesSince(1)).toEqual([]);
		for (const id of ['R1', 'R7', 'R3500']) expect(log.positionOf(id)).toBe(folded.positionOf(id));
		for (const p of folded.players()) expect(log.resolve(p.name)?.id).toBe(p.id);
		expect(log.check({ type: 'race-restored', race: 'R7', reason: 'y', by: 'o', at: AT })).toEqual(
			folded.check({ type: 'race-restored', race: 'R7', reason: 'y', by: 'o', at: AT }),
		);
	});
});
