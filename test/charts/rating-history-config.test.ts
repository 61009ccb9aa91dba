import { describe, expect, it } from 'vitest';
import { placePoints, splitByStatus, thinPoints } from '../../src/charts/rating-history-config.js';
import type { RatingPoint } from '../../src/charts/chart-types.js';

const point = (day: string, rating: number, provisional: boolean, race?: string): RatingPoint => ({
	day,
	rating,
	provisional,
	race,
});

describe('rating history geometry', () => {
	it('spreads points of one day over its first half, in order', () => {
		const placed = placePoints([
			point('2025-01-01', 1, true, 'R1'),
			point('2025-01-02', 2, true, 'R2'),
			point('2025-01-02', 3, true, 'R3'),
		]);
		expect(placed.map((p) => p.x - placed[0]!.x)).toEqual([0, 1, 1.25]);
	});

	it('dashes exactly the segments into a provisional point, with gaps between runs', () => {
		// Provisional: F T F F T → segments 0-1 dashed, 1-2 and 2-3 solid, 3-4 dashed.
		const placed = placePoints(
			['01', '02', '03', '04', '05'].map((d, i) =>
				point(`2025-01-${d}`, 10 * i, [false, true, false, false, true][i]!),
			),
		);
		const x0 = placed[0]!.x;
		const { solid, dashed } = splitByStatus(placed);
		expect(solid.map((p) => [p.x - x0, p.y])).toEqual([
			[1, 10],
			[2, 20],
			[3, 30],
		]);
		expect(dashed.map((p) => [p.x - x0, p.y])).toEqual([
			[0, 0],
			[1, 10],
			[2, null],
			[3, 30],
			[4, 40],
		]);
	});

	it('joins nothing into a restart (a yearly reset): the line breaks, then goes on from the new rating', () => {
		const points: RatingPoint[] = [
			point('2025-12-01', 10, false, 'R1'),
			point('2025-12-15', 12, false, 'R2'),
			{ ...point('2026-02-01', 30, true, 'R3'), restart: true },
			point('2026-03-01', 31, true, 'R4'),
		];
		const placed = placePoints(points);
		const x0 = placed[0]!.x;
		const { solid, dashed } = splitByStatus(placed);
		expect(solid.map((p) => [p.x - x0, p.y])).toEqual([
			[0, 10],
			[14, 12],
		]);
		expect(dashed.map((p) => [p.x - x0, p.y])).toEqual([
			[62, 30],
			[90, 31],
		]);
	});

	it('thins daily points but keeps races, the points before them, the ends and every change of status', () => {
		const days = Array.from({ length: 100 }, (_, d) => {
			const date = new Date(Date.UTC(2025, 0, 1 + d)).toISOString().slice(0, 10);
			return point(date, 1500 + d, d >= 40 && d < 60, d % 25 === 0 ? `R${d}` : undefined);
		});
		const kept = thinPoints(placePoints(days), 10);
		const keptDays = kept.map((p) => days.indexOf(p.point));
		for (const d of [0, 24, 25, 39, 40, 49, 50, 59, 60, 74, 75, 99]) expect(keptDays, `day ${d}`).toContain(d);
		expect(kept.length).toBeLessThan(30);
		// Between kept points no gap is wider than the minimum spacing plus a day.
		for (let i = 1; i < kept.length; i++) expect(kept[i]!.x - kept[i - 1]!.x).toBeLessThanOrEqual(11);
	});
});
