/**
 * Realistic chart inputs, seeded so every run draws the same pictures: the benchmark (bench/charts.ts), the sample
 * images (docs/charts.md) and the tests' smoke renders use them. The numbers come from the project's own Glicko
 * growth (rdGrowth) and odds engine (fieldOdds), as the services would compute them.
 */
import { rdGrowth } from '../../src/ratings/glicko.js';
import { fieldOdds } from '../../src/ratings/odds/odds.js';
import type {
	LeaderboardChart,
	OddsChart,
	RatingHistoryChart,
	RatingPoint,
	RatingSeries,
} from '../../src/charts/chart-types.js';
import { civilFromDays, dayNumber } from '../../src/charts/chart-days.js';
import { mulberry32 } from './mulberry32.js';

const AS_OF = '2026-11-24';
const TITLE = { league: 'Stunts Masters', system: 'glicko', asOf: AS_OF } as const;

function isoDay(days: number): string {
	const { year, month, day } = civilFromDays(days);
	return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * A Glicko player's history: races every few days from `from`, with idle gaps in which the RD grows day by day
 * (c = 15 per day: 40 grows to about 210 in 200 idle days), RD shrinking with each race down to 40, provisional for
 * the first 5 races and again whenever the RD climbs above 200. Band = rating ± 2 RD.
 */
export function glickoHistory(
	player: string,
	seed: number,
	from = '2024-01-08',
	skill = 1750,
	gaps: readonly [string, number][] = [
		['2024-09-02', 150],
		['2025-09-15', 210],
	],
): RatingSeries {
	const u = mulberry32(seed);
	const gauss = () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
	const end = dayNumber(AS_OF);
	const gapStarts = new Map(gaps.map(([day, length]) => [dayNumber(day), length]));
	let rating = 1500;
	let rd = 350;
	let races = 0;
	let lastRaceDay = dayNumber(from);
	const points: RatingPoint[] = [];
	const point = (day: number, race?: string): RatingPoint => ({
		day: isoDay(day),
		rating,
		low: rating - 2 * rd,
		high: rating + 2 * rd,
		provisional: races < 5 || rd > 200,
		race,
	});
	for (let day = dayNumber(from); day <= end;) {
		// A race: the rating moves toward the player's skill by a share that grows with the RD, plus noise.
		rd = rdGrowth(rd, 15, day - lastRaceDay);
		const pull = (rd * rd) / (rd * rd + 120 * 120);
		rating += pull * (skill - rating) * 0.6 + gauss() * 25;
		rd = Math.max(40, rd * 0.8);
		races++;
		lastRaceDay = day;
		points.push(point(day, `R${races}`));
		let next = day + 3 + Math.floor(u() * 10);
		for (const [start, length] of gapStarts) if (start > day && start <= next) next = start + length;
		// Daily growth points for the idle days up to the next race (or to the as-of day).
		const raceRd = rd;
		for (let idle = day + 1; idle < Math.min(next, end + 1); idle++) {
			rd = rdGrowth(raceRd, 15, idle - day);
			points.push(point(idle));
		}
		rd = raceRd;
		day = next;
	}
	return { player, points };
}

export function sampleRatingHistory(players = 1): RatingHistoryChart {
	const cast: [string, number, string, number, [string, number][]][] = [
		[
			'Alice Verstappen',
			11,
			'2024-01-08',
			1780,
			[
				['2024-09-02', 150],
				['2025-09-15', 230],
			],
		],
		['Bob', 23, '2024-03-18', 1620, [['2025-01-20', 90]]],
		[
			'Carol Åkesson',
			37,
			'2024-06-03',
			1700,
			[
				['2024-11-11', 40],
				['2026-02-02', 120],
			],
		],
		['Dmitri Kovalenko-Smirnov', 41, '2025-02-10', 1560, []],
	];
	return {
		...TITLE,
		series: cast
			.slice(0, players)
			.map(([name, seed, from, skill, gaps]) => glickoHistory(name, seed, from, skill, gaps)),
		bandLabel: '±2 RD',
	};
}

const NAMES = [
	'Alice Verstappen',
	'Bob',
	'Carol Åkesson',
	'Dmitri Kovalenko-Smirnov',
	'Eve',
	'Frank Zhang',
	'Gülşen Yılmaz',
	'Hiroshi Tanaka',
	'Ines',
	'Maximilian Alexander von Hohenzollern-Sigmaringen',
	'Jonas',
	'Kiri Te Rangi',
	'Lars Ulrich',
	'Mårten',
	'Noor Al-Hassan',
	'Oskar',
	'Priya Raman',
	'Quentin',
	'Rosa',
	'Sven-Göran',
	'Tomás',
	'Uma',
	'Viktor',
	'Wanda',
	'Xavier',
];

/** `n` players (≤ 25), best first, Glicko ratings 1950 down to 1400 with RDs 45..300; RD > 200 is provisional. */
export function sampleLeaderboard(n = 20): LeaderboardChart {
	const u = mulberry32(5);
	const rows = Array.from({ length: n }, (_, i) => {
		const rating = 1950 - (550 * i) / Math.max(n - 1, 1) + (u() - 0.5) * 10;
		const rd = 45 + u() * (i % 5 === 3 ? 260 : 120);
		return { name: NAMES[i]!, rating, rd };
	}).sort((a, b) => b.rating - a.rating);
	return {
		...TITLE,
		rows: rows.map((row, i) => ({
			rank: i + 1,
			name: row.name,
			rating: row.rating,
			low: row.rating - 2 * row.rd,
			high: row.rating + 2 * row.rd,
			provisional: row.rd > 200,
		})),
		whiskerLabel: '±2 RD',
	};
}

/** The odds of a field of `n` players (2..25) from the odds engine: Glicko performances N(r, RD² + 200²). */
export function sampleOdds(n = 12): OddsChart {
	const u = mulberry32(9 + n);
	const field = Array.from({ length: n }, (_, i) => ({
		name: NAMES[i]!,
		mean: 1900 - i * 35 + u() * 40,
		sd: Math.hypot(50 + u() * 150, 200),
	}));
	const odds = fieldOdds(field.map((p) => ({ kind: 'normal-highest', mean: p.mean, sd: p.sd })));
	const rows = field
		.map((p, i) => ({ name: p.name, pWin: odds.pWin[i]!, pTop3: n > 3 ? odds.pTop3[i] : undefined }))
		.sort((a, b) => b.pWin - a.pWin);
	const headToHead = n === 2 ? { first: rows[0]!.name, second: rows[1]!.name, pFirst: rows[0]!.pWin } : undefined;
	return { ...TITLE, rows, headToHead };
}
