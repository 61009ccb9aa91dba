/**
 * Every real sample of test/fixtures/results is claimed by exactly its own reader (detection by content), and is read
 * by readRaceFile into a race or refused with a ResultFileError, never anything else; no pasted scoreboard of the
 * corpus is claimed by any reader.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeResultBytes } from '../../../src/formats/results/decode.js';
import { RESULT_READERS } from '../../../src/formats/results/index.js';
import { readRaceFile } from '../../../src/formats/results/read-file.js';
import { ResultFileError } from '../../../src/formats/results/types.js';
import { RESULTS_DIR as root, SCOREBOARDS_DIR, filesBelow, fixtureBytes } from './support.js';

/** The format of each sample by its folder (the source's own naming), the pit-stop table of formula1point5 none. */
const EXPECTED: [RegExp, string | undefined][] = [
	[/racePits\.txt$/u, undefined],
	[/^BadWolf1023-MKW-Table-Bot\//u, 'lorenzi'],
	[/^JustaPenguin-assetto-server-manager\/|^mauserrifle-simresults\/assettocorsa(-server-json)?\//u, 'ac'],
	[/^(StefanMcCready-rf2-session-parser|Swizzjack-lmu-pitwall)\//u, 'rfactor-xml'],
	[/^mauserrifle-simresults\/(rfactor1|rfactor2|automobilista|gamestockcar)\//u, 'rfactor-xml'],
	[/^(billyjack2-iRacing-League-Manager|drjackyl-DJiRData)\//u, 'iracing-csv'],
	[/^(jasondilworth56-iracingdataapi|mauserrifle-simresults\/iracing)\//u, 'iracing-json'],
	[
		/^(devology-uk-ams2-dedicated-server-toolbox|mauserrifle-simresults\/(automobilista2|projectcars2-server))\//u,
		'ams2',
	],
	[
		/^(ignaciochemes-AssettoCorsaCompetizione-Discord-Bot-MONGODB|mauserrifle-simresults\/assettocorsa-competizione)\//u,
		'acc',
	],
	[/^mauserrifle-simresults\/(race07|gtr2|raceroom)\//u, 'race07'],
	[/^mauserrifle-simresults\/raceroom-server\//u, 'raceroom'],
	[/^mkalam-alami-formula1point5\//u, 'classification'],
];
const samples = filesBelow(root);

describe('the result-file samples', () => {
	it('are at least 20 files from at least 8 repositories, each with its provenance', () => {
		expect(samples.length).toBeGreaterThanOrEqual(20);
		const repos = new Set(samples.map((path) => path.split('/')[0]));
		expect(repos.size).toBeGreaterThanOrEqual(8);
		for (const repo of repos) expect(() => statSync(join(root, repo!, 'PROVENANCE.md')), repo).not.toThrow();
	});

	it.each(samples)('%s is claimed by its own reader alone, and read or refused with a reason', (path) => {
		const expected = EXPECTED.find(([pattern]) => pattern.test(path))?.[1];
		const bytes = fixtureBytes(path);
		const text = decodeResultBytes(bytes).text.replace(/^\uFEFF/u, '');
		expect(RESULT_READERS.filter((r) => r.detect(text)).map((r) => r.id)).toEqual(
			expected === undefined ? [] : [expected],
		);
		if (expected === undefined) return;
		try {
			const reading = readRaceFile(bytes, { fileName: path.split('/').at(-1) });
			expect(reading.kind).toBe('results');
		} catch (error) {
			expect(error).toBeInstanceOf(ResultFileError);
		}
	});
});

describe('pasted scoreboards', () => {
	const pastes = readdirSync(SCOREBOARDS_DIR).filter(
		(name) => name.endsWith('.txt') && !/\.(known|warnings|errors)\.txt$/u.test(name),
	);
	it.each(pastes)('%s is claimed by no result reader', (name) => {
		const text = readFileSync(join(SCOREBOARDS_DIR, name), 'utf8');
		expect(RESULT_READERS.filter((r) => r.detect(text)).map((r) => r.id)).toEqual([]);
	});
});
