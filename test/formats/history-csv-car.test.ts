import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HistoryCsvWriteError, parseHistoryCsv, writeHistoryCsv } from '../../src/formats/history-csv.js';
import type { Race } from '../../src/ratings/types.js';

const parse = (text: string): Race[] => parseHistoryCsv(text, 'h.csv');

describe('the car column of the history CSV', () => {
	it('reads each racer’s car, empty meaning none, beside the team', () => {
		const races = parse(
			'race,date,player,position,team,car\n' +
				'R1,2024-03-02,Ann,1,Red Bull,Red Bull RB20\n' +
				'R1,2024-03-02,Bob,2,,Ferrari SF-24\n' +
				'R1,2024-03-02,Cy,3,Haas,\n',
		);
		expect(races[0]!.entries).toEqual([
			{ player: 'Ann', position: 1, status: 'finished', team: 'Red Bull', car: 'Red Bull RB20' },
			{ player: 'Bob', position: 2, status: 'finished', car: 'Ferrari SF-24' },
			{ player: 'Cy', position: 3, status: 'finished', team: 'Haas' },
		]);
	});

	it('takes the column in any order and tidies the spaces of a car name as of a player name', () => {
		const races = parse('car,player,race,position\n"  Porsche   911  GT3 R ",Ann,R1,1\n');
		expect(races[0]!.entries[0]!.car).toBe('Porsche 911 GT3 R');
	});

	it('writes the column only when some racer has a car, after the team', () => {
		const races: Race[] = [
			{
				id: 'R1',
				date: '2024-03-02',
				entries: [
					{ player: 'Ann', position: 1, status: 'finished', time: 5400.5, car: 'McLaren' },
					{ player: 'Bob', position: 2, status: 'DNF' },
				],
			},
		];
		expect(writeHistoryCsv(races)).toBe(
			'race,date,player,position,time,status,car\nR1,2024-03-02,Ann,1,5400.5,,McLaren\nR1,2024-03-02,Bob,2,,DNF,\n',
		);
		const withTeam: Race[] = [
			{ id: 'R1', entries: [{ player: 'Ann', position: 1, status: 'finished', team: 'Woking', car: 'McLaren' }] },
		];
		expect(writeHistoryCsv(withTeam)).toBe(
			'race,date,player,position,time,status,team,car\nR1,,Ann,1,,,Woking,McLaren\n',
		);
		const without: Race[] = [{ id: 'R1', entries: [{ player: 'Ann', position: 1, status: 'finished' }] }];
		expect(writeHistoryCsv(without)).toBe('race,date,player,position,time,status\nR1,,Ann,1,,\n');
	});

	it('round-trips cars with commas, quotes, a leading # and 64 characters exactly', () => {
		const cars = ['Lotus, "Type 72"', '#24 Porsche 963', 'ks_ferrari_488_gt3', 'x'.repeat(64), 'Équipe 🏁'];
		const races: Race[] = [
			{
				id: 'Monza',
				date: '2024-09-01',
				entries: cars.map((car, i) => ({ player: `P${i + 1}`, position: i + 1, status: 'finished', car })),
			},
		];
		expect(parse(writeHistoryCsv(races))).toEqual(races);
	});

	it('refuses a bad car name on reading, with the file and line', () => {
		const row = (car: string) => parse(`race,player,position,car\nR1,Ann,1,ok\nR1,Bob,2,${car}\n`);
		expect(() => row('x'.repeat(65))).toThrow(/^h\.csv:3: the car name "x{20}…" is longer than 64 characters$/u);
		expect(() => row('Fer\u200Brari')).toThrow(
			'h.csv:3: the car name contains the character U+200B: control and invisible formatting characters are not allowed',
		);
		expect(() => row('\u3164')).toThrow('h.csv:3: the car name contains the character U+3164');
		expect(() => row('"a\u0007b"')).toThrow('h.csv:3: a car name may not hold control characters');
		expect(() => row('\u0301')).toThrow('h.csv:3: the car name looks blank');
	});

	it('refuses to write a car the reader could not read back', () => {
		const one = (car: string): Race[] => [
			{ id: 'R1', entries: [{ player: 'Ann', position: 1, status: 'finished', car }] },
		];
		const refused = (car: string) => {
			try {
				writeHistoryCsv(one(car));
			} catch (error) {
				expect(error).toBeInstanceOf(HistoryCsvWriteError);
				return (error as Error).message;
			}
			return 'written';
		};
		expect(refused('')).toBe('race "R1", player "Ann": the car name is empty');
		expect(refused(' McLaren')).toBe(
			'race "R1", player "Ann": the car name has spaces at its ends, which a reader trims',
		);
		expect(refused('Mc  Laren')).toBe(
			'race "R1", player "Ann": the car name has several spaces in a row, which a reader makes one',
		);
		expect(refused('a\u0007')).toBe('race "R1", player "Ann": a car name may not hold control characters');
		expect(refused('y'.repeat(65))).toContain('longer than 64 characters');
	});

	it('refuses (HistoryCsvWriteError) or writes a file that reads back the same, for any car', () => {
		const car = fc.option(
			fc.string({
				unit: fc.constantFrom('a', 'Z', ' ', ',', '"', '\n', '\u0007', '\u200B', '#', '🏁', 'é'),
				maxLength: 70,
			}),
			{ nil: undefined },
		);
		fc.assert(
			fc.property(fc.array(car, { minLength: 1, maxLength: 4 }), (cars) => {
				const races: Race[] = [
					{
						id: 'R1',
						entries: cars.map((c, i) => ({
							player: `P${i}`,
							position: i + 1,
							status: 'finished',
							...(c !== undefined && { car: c }),
						})),
					},
				];
				let text: string;
				try {
					text = writeHistoryCsv(races);
				} catch (error) {
					expect(error).toBeInstanceOf(HistoryCsvWriteError);
					return;
				}
				expect(parse(text)).toEqual(races);
			}),
			{ numRuns: 1000 },
		);
	});
});
