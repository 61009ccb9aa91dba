import { describe, expect, it } from 'vitest';
import type { LeagueEventBody, RaceInput } from '../../src/league/league-events.js';
import { createLeagueLog, type LeagueLog } from '../../src/league/race-log.js';

/** A race entry's car (RaceEntry.car) in the league's log: kept by every event that stores or rebuilds entries. */

const config = { guildId: 'g', name: 'Main', headline: 'endure', params: {}, timezone: 'UTC' };
const meta = { by: 'u1', at: '2026-05-02T10:00:00.000Z' };

function build(...bodies: LeagueEventBody[]): LeagueLog {
	const log = createLeagueLog();
	[{ type: 'league-configured', config } as const, ...bodies].forEach((body, seq) =>
		log.apply({ ...body, ...meta, seq }),
	);
	return log;
}
const next = (log: LeagueLog, body: LeagueEventBody) => {
	const event = { ...body, ...meta, seq: log.seq() + 1 };
	log.check(event);
	return log.apply(event);
};
/** `Ann:Porsche 963` per entry, by the players' current names. */
const cars = (log: LeagueLog, race = 'R1') =>
	log.race(race)!.entries.map((e) => `${log.resolve(e.player)!.name}:${e.car ?? '-'}`);

// Ann 100 s in a Porsche, Bob 102 s in a Ferrari, Cy 104 s with no car given.
const R1: RaceInput = {
	date: '2026-05-01',
	entries: [
		{ player: 'Ann', position: 1, status: 'finished', time: 100, car: 'Porsche 963' },
		{ player: 'Bob', position: 2, status: 'finished', time: 102, car: '#51 Ferrari 499P' },
		{ player: 'Cy', position: 3, status: 'finished', time: 104 },
	],
};

describe('cars in the league log', () => {
	it('a submitted race keeps each entry’s car, also in the races the ratings replay', () => {
		const log = build({ type: 'race-submitted', race: R1 });
		expect(cars(log)).toEqual(['Ann:Porsche 963', 'Bob:#51 Ferrari 499P', 'Cy:-']);
		const rated = log.ratedRaces()[0]!.race;
		expect(rated.entries.map((e) => e.car)).toEqual(['Porsche 963', '#51 Ferrari 499P', undefined]);
		expect(Object.hasOwn(rated.entries[2]!, 'car')).toBe(false);
	});

	it('an imported history keeps the cars of every race', () => {
		const log = build({
			type: 'league-imported',
			source: 'h.csv',
			races: [R1, { ...R1, date: '2026-05-08', entries: R1.entries.map((e) => ({ ...e, car: 'Audi R8' })) }],
		});
		expect(cars(log, 'R2')).toEqual(['Ann:Audi R8', 'Bob:Audi R8', 'Cy:Audi R8']);
		expect(cars(log, 'R1')).toEqual(['Ann:Porsche 963', 'Bob:#51 Ferrari 499P', 'Cy:-']);
	});

	it('an edit stores the cars it gives; a merge, a void and a restore keep them', () => {
		const log = build({ type: 'race-submitted', race: R1 });
		next(log, {
			type: 'race-edited',
			race: 'R1',
			reason: 'car fixed',
			changes: { ...R1, entries: R1.entries.map((e) => (e.player === 'Cy' ? { ...e, car: 'BMW M4' } : e)) },
		});
		expect(cars(log)).toEqual(['Ann:Porsche 963', 'Bob:#51 Ferrari 499P', 'Cy:BMW M4']);
		next(log, {
			type: 'race-submitted',
			race: { date: '2026-05-08', entries: [{ ...R1.entries[0]!, player: 'Anne' }] },
		});
		next(log, { type: 'players-merged', from: 'Anne', into: 'Ann' });
		expect(cars(log, 'R2')).toEqual(['Ann:Porsche 963']);
		next(log, { type: 'race-voided', race: 'R1', reason: 'x' });
		next(log, { type: 'race-restored', race: 'R1', reason: 'y' });
		expect(cars(log)).toEqual(['Ann:Porsche 963', 'Bob:#51 Ferrari 499P', 'Cy:BMW M4']);
	});

	it('a time penalty moves the racer with their car, and its withdrawal gives back the cars as classified', () => {
		const log = build({ type: 'race-submitted', race: R1 });
		next(log, { type: 'penalty-given', race: 'R1', player: 'Ann', kind: 'time', seconds: 5, reason: 'track limits' });
		// Ann 105 s: behind Bob (102) and Cy (104).
		expect(cars(log)).toEqual(['Bob:#51 Ferrari 499P', 'Cy:-', 'Ann:Porsche 963']);
		next(log, { type: 'penalty-withdrawn', penalty: 'P1', reason: 'appeal' });
		expect(cars(log)).toEqual(['Ann:Porsche 963', 'Bob:#51 Ferrari 499P', 'Cy:-']);
	});

	it('under a time penalty, a correction of a car is a correction of the results: refused until it is withdrawn', () => {
		const log = build({ type: 'race-submitted', race: R1 });
		next(log, { type: 'penalty-given', race: 'R1', player: 'Ann', kind: 'time', seconds: 5, reason: 'track limits' });
		const changes = {
			...R1,
			// The results as they stand (the penalty applied), only Cy's car new.
			entries: log.race('R1')!.entries.map((e) => (e.player === '#3' ? { ...e, car: 'BMW M4' } : e)),
		};
		expect(() => next(log, { type: 'race-edited', race: 'R1', reason: 'car', changes })).toThrow(
			'R1 has time penalty P1 in force',
		);
	});
});

describe('a car’s name in the log', () => {
	const submit = (car: unknown) => {
		const log = build();
		const race = { date: '2026-05-01', entries: [{ player: 'Ann', position: 1, status: 'finished', car }] };
		return () => next(log, { type: 'race-submitted', race: race as RaceInput });
	};

	it('is stored trimmed, may start with # (no car is a player id) and may be 64 characters long', () => {
		const log = build();
		const long = 'é'.repeat(64);
		next(log, {
			type: 'race-submitted',
			race: {
				entries: [
					{ player: 'Ann', position: 1, status: 'finished', car: ' #7 Toyota ' },
					{ player: 'Bob', position: 2, status: 'finished', car: long },
				],
			},
		});
		expect(log.race('R1')!.entries.map((e) => e.car)).toEqual(['#7 Toyota', long]);
	});

	it('is refused when empty, not text, too long, invisible or with runs of spaces, naming the race and racer', () => {
		expect(submit('  ')).toThrow('race R1, Ann: car is empty');
		expect(submit(7)).toThrow('race R1, Ann: car must be text');
		expect(submit('x'.repeat(65))).toThrow('race R1, Ann: car "xxxxxxxxxxxxxxxxxxxx…" is longer than 64 characters');
		expect(submit('Fer\u200Brari')).toThrow(
			'the car name contains the character U+200B: control and invisible formatting characters are not allowed',
		);
		expect(submit('Fer\u0007rari')).toThrow('the car name contains the character U+0007');
		expect(submit('Porsche  963')).toThrow(
			'the car name "Porsche 963" has a tab or several spaces between its words: use one space',
		);
	});

	it('is checked in every race of an import, also for a racer met in an earlier race (teams likewise)', () => {
		const log = build();
		const second = (entry: object): RaceInput[] => [
			R1,
			{ date: '2026-05-08', entries: [{ player: 'Ann', position: 1, status: 'finished', ...entry }] },
		];
		const importing = (races: RaceInput[]) => () =>
			log.check({ type: 'league-imported', source: 'h.csv', races, ...meta });
		expect(importing(second({ car: 'Audi\tR8' }))).toThrow('the car name "Audi R8" has a tab');
		expect(importing(second({ team: 'Red  Bull' }))).toThrow('the team name "Red Bull" has a tab');
		expect(importing(second({ car: 'Audi R8', team: 'Red Bull' }))).not.toThrow();
	});
});
