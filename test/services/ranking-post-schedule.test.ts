/**
 * When the monthly ranking post is due (src/services/posts/ranking-post-schedule.ts, src/services/leagues/zoned-time.ts). Expected
 * instants are worked out by hand from the zones' published rules: Europe/Budapest is UTC+1 (CET) and UTC+2 (CEST,
 * from 2026-03-29 01:00Z to 2026-10-25 01:00Z); America/New_York is UTC−5 (EST) and UTC−4 (EDT, from 2026-03-08
 * 07:00Z to 2026-11-01 06:00Z).
 */
import { describe, expect, it } from 'vitest';
import { duePost, LATE_AFTER_MS, nextPost, scheduledPostAt } from '../../src/services/posts/ranking-post-schedule.js';
import { formatLocal, localTime, zonedInstant } from '../../src/services/leagues/zoned-time.js';

const BUD = 'Europe/Budapest';
const NY = 'America/New_York';
const at = (iso: string) => new Date(iso);
const iso = (d: Date | undefined) => d?.toISOString();

describe('zoned time', () => {
	it('reads and builds ordinary local times on both sides of DST', () => {
		expect(iso(zonedInstant({ year: 2026, month: 1, day: 15, hour: 12 }, BUD))).toBe('2026-01-15T11:00:00.000Z');
		expect(iso(zonedInstant({ year: 2026, month: 7, day: 15, hour: 12 }, BUD))).toBe('2026-07-15T10:00:00.000Z');
		expect(iso(zonedInstant({ year: 2026, month: 1, day: 15, hour: 12 }, NY))).toBe('2026-01-15T17:00:00.000Z');
		expect(iso(zonedInstant({ year: 2026, month: 7, day: 15, hour: 12 }, NY))).toBe('2026-07-15T16:00:00.000Z');
		expect(localTime(at('2026-07-15T10:00:00Z'), BUD)).toEqual({
			year: 2026,
			month: 7,
			day: 15,
			hour: 12,
			minute: 0,
			second: 0,
		});
		expect(formatLocal(at('2026-11-30T23:00:00Z'), BUD)).toBe('2026-12-01 00:00');
	});

	it('an hour skipped by the spring-forward change is moved forward by the jump (the instant the clocks show 03:00)', () => {
		// Budapest 2026-03-29: 02:00 CET becomes 03:00 CEST at 01:00Z; 02:xx does not exist.
		expect(iso(zonedInstant({ year: 2026, month: 3, day: 29, hour: 2 }, BUD))).toBe('2026-03-29T01:00:00.000Z');
		expect(iso(zonedInstant({ year: 2026, month: 3, day: 29, hour: 3 }, BUD))).toBe('2026-03-29T01:00:00.000Z');
		expect(iso(zonedInstant({ year: 2026, month: 3, day: 29, hour: 1 }, BUD))).toBe('2026-03-29T00:00:00.000Z');
		// New York 2026-03-08: 02:00 EST becomes 03:00 EDT at 07:00Z.
		expect(iso(zonedInstant({ year: 2026, month: 3, day: 8, hour: 2 }, NY))).toBe('2026-03-08T07:00:00.000Z');
		expect(localTime(at('2026-03-08T07:00:00Z'), NY).hour).toBe(3);
	});

	it('an hour that occurs twice on the fall-back day is its first occurrence', () => {
		// Budapest 2026-10-25: 02:00-02:59 happens in CEST (00:00Z) and again in CET (01:00Z).
		expect(localTime(at('2026-10-25T00:00:00Z'), BUD).hour).toBe(2);
		expect(localTime(at('2026-10-25T01:00:00Z'), BUD).hour).toBe(2);
		expect(iso(zonedInstant({ year: 2026, month: 10, day: 25, hour: 2 }, BUD))).toBe('2026-10-25T00:00:00.000Z');
		expect(iso(zonedInstant({ year: 2026, month: 10, day: 25, hour: 3 }, BUD))).toBe('2026-10-25T02:00:00.000Z');
		// New York 2026-11-01: 01:00-01:59 happens in EDT (05:00Z) and again in EST (06:00Z).
		expect(iso(zonedInstant({ year: 2026, month: 11, day: 1, hour: 1 }, NY))).toBe('2026-11-01T05:00:00.000Z');
		expect(iso(zonedInstant({ year: 2026, month: 11, day: 1, hour: 2 }, NY))).toBe('2026-11-01T07:00:00.000Z');
	});
});

describe('which post is due', () => {
	const noon1 = { day: 1, hour: 12 };

	it('nothing before the scheduled instant, the month from it on, late from an hour after it', () => {
		expect(duePost(at('2026-12-01T10:59:59Z'), noon1, BUD)).toBeUndefined();
		expect(duePost(at('2026-12-01T11:00:00Z'), noon1, BUD)).toEqual({
			month: '2026-12',
			scheduledAt: at('2026-12-01T11:00:00Z'),
			late: false,
		});
		// A restart in the middle of the posting hour still posts on time.
		expect(duePost(at('2026-12-01T11:30:00Z'), noon1, BUD)?.late).toBe(false);
		expect(duePost(at('2026-12-01T11:59:59Z'), noon1, BUD)?.late).toBe(false);
		expect(LATE_AFTER_MS).toBe(3_600_000);
		expect(duePost(at('2026-12-01T12:00:00Z'), noon1, BUD)?.late).toBe(true);
		// Still due (late) until the last second of the month, local time.
		expect(duePost(at('2026-12-31T22:59:59Z'), noon1, BUD)).toMatchObject({ month: '2026-12', late: true });
	});

	it('a month boundary: the month is the league’s local month, not UTC’s', () => {
		const midnight = { day: 1, hour: 0 };
		// 2026-11-30T23:00Z is 2026-12-01 00:00 in Budapest: December's post is due, though UTC is still in November.
		expect(duePost(at('2026-11-30T22:59:59Z'), midnight, BUD)).toMatchObject({ month: '2026-11', late: true });
		expect(duePost(at('2026-11-30T23:00:00Z'), midnight, BUD)).toMatchObject({ month: '2026-12', late: false });
		// And the other way round in New York: 2027-01-01T03:00Z is still 2026-12-31 22:00 there.
		expect(duePost(at('2027-01-01T03:00:00Z'), { day: 1, hour: 0 }, NY)).toMatchObject({ month: '2026-12' });
		expect(duePost(at('2027-01-01T05:00:00Z'), { day: 1, hour: 0 }, NY)).toMatchObject({ month: '2027-01' });
		expect(nextPost(at('2026-11-30T22:59:59Z'), midnight, BUD)).toEqual({
			month: '2026-12',
			at: at('2026-11-30T23:00:00Z'),
		});
		expect(nextPost(at('2026-12-15T00:00:00Z'), noon1, BUD)).toEqual({
			month: '2027-01',
			at: at('2027-01-01T11:00:00Z'),
		});
	});

	it('a post missed for the whole rest of its month is not made in the next month', () => {
		const late28 = { day: 28, hour: 23 };
		expect(duePost(at('2026-02-28T23:30:00Z'), late28, 'UTC')).toMatchObject({ month: '2026-02', late: false });
		expect(duePost(at('2026-03-01T00:00:00Z'), late28, 'UTC')).toBeUndefined();
	});

	it('DST in Europe/Budapest: the post hour moves with local time', () => {
		const day29at2 = { day: 29, hour: 2 };
		// 2026-03-29 02:00 does not exist: due when the clocks show 03:00 (01:00Z).
		expect(iso(scheduledPostAt(2026, 3, day29at2, BUD))).toBe('2026-03-29T01:00:00.000Z');
		expect(duePost(at('2026-03-29T00:59:59Z'), day29at2, BUD)).toBeUndefined();
		expect(duePost(at('2026-03-29T01:00:00Z'), day29at2, BUD)).toMatchObject({ month: '2026-03', late: false });
		// 2026-10-25 02:00 occurs twice: due at the first (00:00Z); by the second (01:00Z) it is an hour old, late.
		const day25at2 = { day: 25, hour: 2 };
		expect(duePost(at('2026-10-24T23:59:59Z'), day25at2, BUD)).toBeUndefined();
		expect(duePost(at('2026-10-25T00:00:00Z'), day25at2, BUD)).toMatchObject({ month: '2026-10', late: false });
		expect(duePost(at('2026-10-25T01:00:00Z'), day25at2, BUD)).toMatchObject({ month: '2026-10', late: true });
		// A post at noon: 11:00Z before the change, 10:00Z after.
		expect(iso(scheduledPostAt(2026, 3, { day: 28, hour: 12 }, BUD))).toBe('2026-03-28T11:00:00.000Z');
		expect(iso(scheduledPostAt(2026, 3, { day: 29, hour: 12 }, BUD))).toBe('2026-03-29T10:00:00.000Z');
		expect(iso(scheduledPostAt(2026, 10, { day: 25, hour: 12 }, BUD))).toBe('2026-10-25T11:00:00.000Z');
	});

	it('DST in America/New_York', () => {
		const day8at2 = { day: 8, hour: 2 };
		expect(duePost(at('2026-03-08T06:59:59Z'), day8at2, NY)).toBeUndefined();
		expect(duePost(at('2026-03-08T07:00:00Z'), day8at2, NY)).toMatchObject({ month: '2026-03', late: false });
		const day1at1 = { day: 1, hour: 1 };
		expect(duePost(at('2026-11-01T04:59:59Z'), day1at1, NY)).toBeUndefined();
		expect(duePost(at('2026-11-01T05:00:00Z'), day1at1, NY)).toMatchObject({ month: '2026-11', late: false });
		expect(duePost(at('2026-11-01T06:00:00Z'), day1at1, NY)).toMatchObject({ month: '2026-11', late: true });
		expect(iso(scheduledPostAt(2026, 11, { day: 1, hour: 12 }, NY))).toBe('2026-11-01T17:00:00.000Z');
		expect(iso(scheduledPostAt(2026, 10, { day: 1, hour: 12 }, NY))).toBe('2026-10-01T16:00:00.000Z');
	});
});
