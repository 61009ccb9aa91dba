/** players.csv: what a history CSV cannot say about the players, one fact a row (src/formats/players-csv.ts). */
import { describe, expect, it } from 'vitest';
import { PlayersCsvError, readPlayersCsv, writePlayersCsv } from '../../src/formats/players-csv.js';

describe('players.csv', () => {
	it('round-trips names and aliases with commas and quotes, a Discord link and sim ids', () => {
		const players = [
			{
				name: 'Smith, "Max"',
				aliases: ['Max, S.', 'MS'],
				user: '123456789012345678',
				simIds: ['steam:76561198000000001'],
			},
			{ name: 'Zoë', aliases: [], simIds: ['iracing:123456', 'raceroom:42'] },
		];
		const text = writePlayersCsv(players);
		expect(text).toBe(
			'player,kind,value\n"Smith, ""Max""",alias,"Max, S."\n"Smith, ""Max""",alias,MS\n' +
				'"Smith, ""Max""",discord,123456789012345678\n"Smith, ""Max""",sim_id,steam:76561198000000001\n' +
				'Zoë,sim_id,iracing:123456\nZoë,sim_id,raceroom:42\n',
		);
		expect(readPlayersCsv(text, 'p.csv')).toEqual(players);
	});

	it('names the line of a bad row', () => {
		const bad = (text: string) => () => readPlayersCsv(`player,kind,value\n${text}`, 'p.csv');
		expect(bad('Ann,discord,12')).toThrow(
			new PlayersCsvError('p.csv:2: "12" is not a Discord user id (17 to 20 digits)'),
		);
		expect(bad('Ann,discord,123456789012345678\nann,discord,123456789012345679')).toThrow(
			'p.csv:3: ann has a second Discord link',
		);
		expect(bad('Ann,alias')).toThrow('p.csv:2: expected 3 fields, got 2');
		expect(bad('Ann,alias,')).toThrow('p.csv:2: a player and a value are required');
	});
});
