import { beforeEach, describe, expect, it } from 'vitest';
import { replayHistory } from '../../src/league/replay.js';
import { getSystem } from '../../src/ratings/index.js';
import type { Race } from '../../src/ratings/types.js';
import { PREVIEW_TTL_MS } from '../../src/services/races/previews.js';
import { splitRaceRef } from '../../src/services/races/race-service.js';
import {
	addRace,
	eventCount,
	member,
	organizer,
	organizer2,
	ROLE,
	roleOrganizer,
	world,
	type World,
} from './helpers.js';

let w: World;
let league: string;

beforeEach(async () => {
	w = world();
	league = (
		await w.services.leagues.create(organizer, {
			name: 'Sunday Cup',
			headline: 'glicko',
			organizerRole: { id: ROLE, managed: false },
		})
	).id;
});

describe('submit → preview', () => {
	it('previews every racer under the headline system without storing anything; numbers match the module', async () => {
		await addRace(w, '1. Alice 1:00.0\n2. Bob 1:01.0\n3. Carol 1:02.0');
		const before = await eventCount(w, league);
		const preview = await w.services.races.submit(organizer, { text: '1. Bob\n2. Alice\n3. Dave\n4. Carol DNF' });
		expect(await eventCount(w, league)).toBe(before);
		expect(preview.system).toBe('glicko');
		expect(preview.lines.map((l) => [l.name, l.isNew])).toEqual([
			['Bob', false],
			['Alice', false],
			['Dave', true],
			['Carol', false],
		]);
		// The same two races replayed by the rating module itself (players as ids, as the log stores them).
		const glicko = getSystem('glicko');
		const races: Race[] = [
			{ id: 'R1', entries: [1, 2, 3].map((p) => ({ player: `#${p}`, position: p, status: 'finished' as const })) },
			{
				id: 'R2',
				entries: [
					{ player: '#2', position: 1, status: 'finished' },
					{ player: '#1', position: 2, status: 'finished' },
					{ player: '#4', position: 3, status: 'finished' },
					{ player: '#3', position: 4, status: 'DNF' },
				],
			},
		];
		const expected = new Map<string, { before: number; after: number }>();
		replayHistory(glicko, glicko.params(), races, {}, (outcome) => {
			if (outcome.race.id !== 'R2') return;
			for (const c of outcome.changes) expected.set(c.player, { before: c.before.rating, after: c.after.rating });
		});
		const ids = ['#2', '#1', '#4', '#3'];
		preview.lines.forEach((line, i) => {
			const want = expected.get(ids[i]!)!;
			expect(line.before?.rating).toBeCloseTo(want.before, 9);
			expect(line.after?.rating).toBeCloseTo(want.after, 9);
		});
		expect(preview.lines[0]!.after!.rating).toBeGreaterThan(preview.lines[0]!.before!.rating);
	});

	it('flags a name close to a known player as a possible typo', async () => {
		await addRace(w, '1. Alice\n2. Bob');
		const preview = await w.services.races.submit(organizer, { text: '1. Alcie\n2. Bob' });
		expect(preview.warnings.join('\n')).toMatch(/"Alcie" is not a known player; did you mean "Alice"\?/);
		expect(preview.lines[0]).toMatchObject({ name: 'Alcie', isNew: true });
	});

	it('a malformed scoreboard is refused with its line, nothing stored, no preview kept', async () => {
		const before = await eventCount(w, league);
		await expect(w.services.races.submit(organizer, { text: '1. Alice\n1. Bob\n0. Carol' })).rejects.toMatchObject({
			code: 'bad-scoreboard',
		});
		await expect(w.services.races.submit(organizer, { text: '' })).rejects.toThrow(/line 1: the scoreboard is empty/);
		expect(await eventCount(w, league)).toBe(before);
		expect(w.services.races.pendingCount()).toBe(0);
	});

	it('a scoreboard name written like a player id (#1) is refused, never credited to player #1', async () => {
		await addRace(w, '1. Alice\n2. Bob');
		const before = await eventCount(w, league);
		await expect(w.services.races.submit(organizer, { text: '1. "#2"\n2. Carol' })).rejects.toThrow(
			/line 1: the name "#2" starts with #, as player ids do/,
		);
		await expect(w.services.races.submit(organizer, { text: '1. #2\n2. Carol' })).rejects.toThrow(
			/line 1: this line seems to hold several racers/,
		);
		await expect(w.services.races.submit(organizer, { text: 'Pos,Driver\n1,Carol\n2,#1' })).rejects.toThrow(
			/line 3: the name "#1" starts with #, as player ids do/,
		);
		expect(await eventCount(w, league)).toBe(before);
		expect(w.services.races.pendingCount()).toBe(0);
	});

	it('the same player twice is refused, nothing stored', async () => {
		const before = await eventCount(w, league);
		await expect(w.services.races.submit(organizer, { text: '1. Alice\n2. alice' })).rejects.toThrow(
			/line 2: "alice" is entered twice: on line 1 as "Alice"/,
		);
		expect(await eventCount(w, league)).toBe(before);
	});

	it('a race without a date is dated today in the league’s time zone, so a yearly-reset league takes it', async () => {
		await w.services.leagues.configure(organizer, undefined, { reset: 'yearly', timezone: 'Pacific/Kiritimati' });
		const before = await eventCount(w, league);
		// 2026-03-01T12:00Z is already 2026-03-02 at UTC+14.
		const preview = await w.services.races.submit(organizer, { text: '1. A\n2. B' });
		expect(preview).toMatchObject({ date: '2026-03-02', datedToday: true });
		const race = (await w.services.races.confirm(organizer, preview.id)).race;
		expect(await eventCount(w, league)).toBe(before + 1);
		expect((await w.repo.loadState(league)).race(race)?.date).toBe('2026-03-02');
	});

	it('a preview left open over midnight is dated the day it is confirmed', async () => {
		w.now.ms = Date.parse('2026-03-01T23:59:00Z');
		const preview = await w.services.races.submit(organizer, { text: '1. A\n2. B' });
		expect(preview.date).toBe('2026-03-01');
		w.now.ms = Date.parse('2026-03-02T00:01:00Z');
		const race = (await w.services.races.confirm(organizer, preview.id)).race;
		expect((await w.repo.loadState(league)).race(race)?.date).toBe('2026-03-02');
	});

	it('a date that is not a calendar day is refused and nothing is pending or stored', async () => {
		const before = await eventCount(w, league);
		const refusals: [string, string][] = [
			['2026-02-30', 'is not a day of the calendar: February 2026 has 28 days.'],
			['2026-13-01', 'is not a day of the calendar: there is no month 13.'],
			['2026-2-3', ': did you mean 2026-02-03? Dates are written YYYY-MM-DD, like 2026-02-03.'],
			['tomorrow', 'is not a date. Dates are written YYYY-MM-DD (year, month, day), like 2026-03-01.'],
		];
		for (const [date, why] of refusals) {
			await expect(w.services.races.submit(organizer, { text: '1. A\n2. B', date })).rejects.toMatchObject({
				code: 'bad-date',
				message: `The date "${date}"${why.startsWith(':') ? '' : ' '}${why} Nothing was stored.`,
			});
		}
		expect(w.services.races.pendingCount()).toBe(0);
		expect(await eventCount(w, league)).toBe(before);
	});

	it('a date before races already rated names them; more than a day ahead is accepted with a warning about growth', async () => {
		const later = await addRace(w, '1. A\n2. B', undefined, '2026-02-20');
		const back = await w.services.races.submit(organizer, { text: '1. A\n2. B', date: '2026-02-10' });
		expect(back.warnings[0]).toBe(`Dated 2026-02-10, before ${later} already rated: its ratings will be recomputed.`);
		const tomorrow = await w.services.races.submit(organizer, { text: '1. A\n2. B', date: '2026-03-02' });
		expect(tomorrow.warnings).toEqual([]);
		const ahead = await w.services.races.submit(organizer, { text: '1. A\n2. B', date: '2026-03-05' });
		expect(ahead.warnings[0]).toMatch(
			/^This race is dated 2026-03-05, 4 days after today \(2026-03-01, UTC\)\..*grows 4 days ahead/,
		);
		const today = await w.services.races.submit(organizer, { text: '1. A\n2. B' });
		expect(today.warnings).toEqual([]);
	});

	it('under the yearly reset, a race of an earlier year is rated in its own season: this season stands', async () => {
		await w.services.leagues.configure(organizer, undefined, { reset: 'yearly' });
		await addRace(w, '1. A\n2. B\n3. C', undefined, '2026-02-20');
		const board = async () =>
			(await w.services.leaderboard.page(member, {})).rows.map((r) => [r.name, r.rating] as const);
		const before = await board();
		const late = await w.services.races.submit(organizer, { text: '1. B\n2. D', date: '2025-12-20' });
		// Races are rated in date order: it is rated in 2025, before the 2026 race, which restarts every rating.
		expect(late.warnings[0]).toMatch(/^Dated 2025-12-20, before R\d+ already rated: its ratings will be recomputed\.$/);
		expect(late.unrated).toBeUndefined();
		expect(late.lines.map((line) => [line.name, line.before?.races, line.after?.races])).toEqual([
			['B', 0, 1], // a newcomer of the 2025 season
			['D', 0, 1],
		]);
		await w.services.races.confirm(organizer, late.id);
		expect(await board()).toEqual(before); // the season's standings stand; D is in no rating of 2026
		// The next race of the season is rated on the season's ratings (no second reset).
		const next = await w.services.races.submit(organizer, { text: '1. C\n2. A' });
		expect(next.lines.map((line) => line.isNew)).toEqual([false, false]);
		const rating = new Map(before);
		expect(next.lines.map((line) => line.before?.rating)).toEqual([rating.get('C'), rating.get('A')]);
	});

	it('the same results as a stored race are flagged: with times on any date, without times on the same day', async () => {
		const timed = '1. Ann 1:01.250\n2. Bob 1:02.000\nDNF Cy';
		const first = await w.services.races.submit(organizer, { text: timed, date: '2026-02-20', name: 'Round 1' });
		const stored = (await w.services.races.confirm(organizer, first.id)).race;
		const again = await w.services.races.submit(organizer, { text: 'DNF Cy\n1. ann 1:01.250\n2. Bob 1:02.000' });
		expect(again.warnings).toEqual([
			'line 2: "ann" is read as the known player "Ann" (names ignore case)',
			`This scoreboard is the same as ${stored} “Round 1” (2026-02-20): the same racers in the same places, with the same times. Confirm only if it is another race.`,
		]);
		// One time differs by a millisecond, or a place: another race.
		const other = await w.services.races.submit(organizer, { text: '1. Ann 1:01.251\n2. Bob 1:02.000\nDNF Cy' });
		expect(other.warnings).toEqual([]);
		const swapped = await w.services.races.submit(organizer, { text: '1. Bob 1:01.250\n2. Ann 1:02.000\nDNF Cy' });
		expect(swapped.warnings).toEqual([]);
		// Without times the same order is a double only on the same day (a small league's order repeats).
		await addRace(w, '1. Ann\n2. Bob', undefined, '2026-02-25');
		const sameDay = await w.services.races.submit(organizer, { text: '1. Ann\n2. Bob', date: '2026-02-25' });
		expect(sameDay.warnings).toEqual([
			expect.stringMatching(/^This scoreboard is the same as R\d+ \(2026-02-25\): .*, on the same day\. Confirm only/),
		]);
		expect((await w.services.races.submit(organizer, { text: '1. Ann\n2. Bob' })).warnings).toEqual([]);
		// A voided race is no double, and a new player makes it another race.
		await w.services.races.void(organizer, stored, 'entered twice');
		expect((await w.services.races.submit(organizer, { text: timed })).warnings).toEqual([]);
		await addRace(w, timed, undefined, '2026-02-26');
		expect((await w.services.races.submit(organizer, { text: `${timed}\nDNF Dee` })).warnings).toEqual([]);
	});

	it('a race with one racer rated is flagged: nobody to compare against', async () => {
		const solo =
			'Only Ann is rated in this race: with no one to compare against, no rating learns anything from it. Confirm only if the scoreboard is complete.';
		expect((await w.services.races.submit(organizer, { text: '1. Ann' })).warnings).toEqual([solo]);
		expect((await w.services.races.submit(organizer, { text: '1. Ann\nDNS Bob\nDSQ Cy' })).warnings).toEqual([solo]);
		expect((await w.services.races.submit(organizer, { text: '1. Ann\nDNF Bob' })).warnings).toEqual([]);
		// With retirements left out of the rating, a finisher and a DNF is a solo race too.
		await w.services.leagues.configure(organizer, undefined, { retirements: 'excluded' });
		expect((await w.services.races.submit(organizer, { text: '1. Ann\nDNF Bob' })).warnings).toEqual([solo]);
	});

	it('members without Manage Server or the organizer role cannot submit', async () => {
		await expect(w.services.races.submit(member, { text: '1. A\n2. B' })).rejects.toMatchObject({
			code: 'not-organizer',
		});
		await expect(w.services.races.submit(roleOrganizer, { text: '1. A\n2. B' })).resolves.toBeDefined();
	});
});

describe('confirm and cancel', () => {
	it('confirm appends one race-submitted event; a second Confirm of the preview stores nothing', async () => {
		const preview = await w.services.races.submit(organizer, { text: '1. Alice\n2. Bob', date: '2026-02-28' });
		const before = await eventCount(w, league);
		const stored = await w.services.races.confirm(organizer, preview.id);
		expect(stored).toMatchObject({ already: false, race: 'R1', newPlayers: ['Alice', 'Bob'] });
		const events = await w.repo.readEvents(league);
		expect(events).toHaveLength(before + 1);
		expect(events.at(-1)).toMatchObject({
			type: 'race-submitted',
			by: organizer.userId,
			race: { date: '2026-02-28' },
			preview: preview.id,
		});
		await expect(w.services.races.confirm(organizer, preview.id)).resolves.toMatchObject({ already: true, race: 'R1' });
		expect(await w.repo.readEvents(league)).toHaveLength(before + 1);
	});

	it('only an organizer (the submitter or another) may confirm', async () => {
		const preview = await w.services.races.submit(organizer, { text: '1. Alice\n2. Bob' });
		await expect(w.services.races.confirm(member, preview.id)).rejects.toMatchObject({ code: 'not-organizer' });
		expect(await eventCount(w, league)).toBe(1);
		await expect(w.services.races.confirm(organizer2, preview.id)).resolves.toMatchObject({ race: 'R1' });
	});

	it('a preview expires after 15 minutes', async () => {
		const preview = await w.services.races.submit(organizer, { text: '1. Alice\n2. Bob' });
		w.now.ms += PREVIEW_TTL_MS;
		await expect(w.services.races.confirm(organizer, preview.id)).rejects.toMatchObject({ code: 'preview-expired' });
		expect(await eventCount(w, league)).toBe(1);
	});

	it('cancel drops the preview and stores nothing', async () => {
		const preview = await w.services.races.submit(organizer, { text: '1. Alice\n2. Bob' });
		await w.services.races.cancel(organizer, preview.id);
		expect(w.services.races.pendingCount()).toBe(0);
		await expect(w.services.races.confirm(organizer, preview.id)).rejects.toMatchObject({ code: 'preview-expired' });
		expect(await eventCount(w, league)).toBe(1);
	});
});

describe('void, edit, show, list', () => {
	it('void needs an organizer and a reason, and marks the race voided', async () => {
		await addRace(w, '1. Alice\n2. Bob');
		await expect(w.services.races.void(member, 'R1', 'dup')).rejects.toMatchObject({ code: 'not-organizer' });
		await expect(w.services.races.void(organizer, 'R1', '  ')).rejects.toThrow(/reason is required/);
		const view = await w.services.races.void(organizer, 'r1', 'duplicate');
		expect(view.race.status).toBe('voided');
		expect(view.race.edits[0]).toMatchObject({ kind: 'voided', reason: 'duplicate', by: organizer.userId });
		const events = await eventCount(w, league);
		// Voided again, or corrected while voided: said plainly, with the void's date and reason, and nothing stored.
		await expect(w.services.races.void(organizer, 'R1', 'again')).rejects.toMatchObject({
			code: 'already-voided',
			message: 'Race R1 was voided on 2026-03-01: “duplicate”. Nothing was changed.',
		});
		await expect(w.services.races.previewEdit(organizer, 'R1', '1. Bob\n2. Alice', 'swap')).rejects.toMatchObject({
			code: 'bad-edit',
			message: 'Race R1 was voided on 2026-03-01: “duplicate”. To correct it, restore it first with /race restore.',
		});
		expect(await eventCount(w, league)).toBe(events);
		await expect(w.services.races.show(member, 'R9')).rejects.toMatchObject({ code: 'unknown-race' });
	});

	it('restore makes a voided race count again: every rating equals a league that never voided it', async () => {
		await addRace(w, '1. Alice\n2. Bob\n3. Carol');
		await addRace(w, '1. Carol\n2. Alice');
		await addRace(w, '1. Bob\n2. Carol');
		const board = async () =>
			(await w.services.leaderboard.page(member, {})).rows.map((r) => [r.name, r.rating, r.uncertainty]);
		const before = await board();
		await w.services.races.void(organizer, 'R2', 'wrong track');
		expect(await board()).not.toEqual(before);
		const events = await eventCount(w, league);
		await expect(w.services.races.restore(member, 'R2', 'it was right')).rejects.toMatchObject({
			code: 'not-organizer',
		});
		await expect(w.services.races.restore(organizer, 'R2', ' ')).rejects.toThrow(/reason is required/);
		await expect(w.services.races.restore(organizer, 'R1', 'why')).rejects.toMatchObject({ code: 'not-voided' });
		expect(await eventCount(w, league)).toBe(events);
		const view = await w.services.races.restore(organizer, 'R2', 'the track was right after all');
		expect(view.race.status).toBe('confirmed');
		expect(view.race.edits.map((e) => e.kind)).toEqual(['voided', 'restored']);
		expect(await board()).toEqual(before);
	});

	it('a correction is previewed and stored only on Confirm, by its author or another organizer, within 15 minutes', async () => {
		await addRace(w, '1. Alice\n2. Bob\n3. Carol');
		const before = await eventCount(w, league);
		await expect(w.services.races.previewEdit(member, 'R1', '1. Bob\n2. Alice', 'swap')).rejects.toMatchObject({
			code: 'not-organizer',
		});
		await expect(w.services.races.previewEdit(organizer, 'R1', '1. Bob\n1. Bob', 'swap')).rejects.toMatchObject({
			code: 'bad-scoreboard',
		});
		const preview = await w.services.races.previewEdit(organizer, 'R1', '1. Bob\n2. Alice\n3. Carol', 'swap');
		expect(preview.before.map((e) => e.name)).toEqual(['Alice', 'Bob', 'Carol']);
		expect(preview.after.map((e) => e.name)).toEqual(['Bob', 'Alice', 'Carol']);
		expect(await eventCount(w, league)).toBe(before);
		const { view } = await w.services.races.confirmEdit(organizer2, preview.id);
		expect(view.entries.map((e) => e.name)).toEqual(['Bob', 'Alice', 'Carol']);
		expect(view.race.edits.at(-1)).toMatchObject({ kind: 'edited', reason: 'swap', by: organizer2.userId });
		expect(await eventCount(w, league)).toBe(before + 1);
		await expect(w.services.races.confirmEdit(organizer, preview.id)).resolves.toMatchObject({ already: true });
		expect(await eventCount(w, league)).toBe(before + 1);
		const late = await w.services.races.previewEdit(organizer, 'R1', '1. Carol\n2. Bob\n3. Alice', 'again');
		w.now.ms += 16 * 60_000;
		await expect(w.services.races.confirmEdit(organizer, late.id)).rejects.toMatchObject({ code: 'preview-expired' });
		expect(await eventCount(w, league)).toBe(before + 1);
	});

	it('edit replaces the entries and keeps the history', async () => {
		await addRace(w, '1. Alice\n2. Bob');
		const { view } = await w.services.races.edit(organizer, 'R1', '1. Bob\n2. Alice', 'swapped');
		expect(view.entries.map((e) => [e.name, e.position])).toEqual([
			['Bob', 1],
			['Alice', 2],
		]);
		expect(view.race.edits.map((e) => e.reason)).toEqual(['swapped']);
		const standings = (await w.repo.ratingsAt(league, 'glicko')).standings;
		expect(standings[0]!.name).toBe('Bob');
	});

	it('lists races newest first, ten per page, and refuses a page out of range', async () => {
		for (let i = 0; i < 12; i++) await addRace(w, '1. Alice\n2. Bob');
		const first = await w.services.races.list(member, undefined, 1);
		expect(first).toMatchObject({ page: 1, pages: 2, total: 12 });
		expect(first.races.map((r) => r.id).slice(0, 2)).toEqual(['R12', 'R11']);
		expect((await w.services.races.list(member, undefined, 2)).races).toHaveLength(2);
		await expect(w.services.races.list(member, undefined, 3)).rejects.toMatchObject({ code: 'bad-page' });
	});

	it('splits qualified race references', () => {
		expect(splitRaceRef('Sunday Cup/r3')).toEqual({ league: 'Sunday Cup', race: 'R3' });
		expect(splitRaceRef(' R7 ')).toEqual({ league: undefined, race: 'R7' });
	});
});
