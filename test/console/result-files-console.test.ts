/**
 * Every race sample of test/fixtures/results attached in the console as an organizer types it (`/race submit
 * file:…`), then `confirm`: a preview that says what the file was read as, marks what was inferred, and a stored race
 * with the file's racers (real router, services, memory store).
 */
import { relative } from 'node:path';
import { expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { readCsv } from '../../src/formats/csv.js';
import { raceSamples, RESULTS_DIR } from '../formats/results/support.js';
import { consoleActor, consoleWorld } from './console-session.js';

const root = RESULTS_DIR;
const races = raceSamples().map(({ path, reading }) => ({
	path,
	racers: reading.board.result.ok ? reading.board.result.entries.length : 0,
	inferred: reading.board.racers.some((r) => r.from.statusInferred === true && r.from.status !== 'finished'),
	format: reading.file.formatName,
}));

it(`every race sample (${races.length}) attached in the console previews and is stored on confirm`, async () => {
	expect(races.length).toBeGreaterThanOrEqual(30);
	const { repo, services, type } = consoleWorld(() => new Date('2026-11-27T12:00:00Z'));
	// A league per sample: each file's race is the first of its league.
	for (const [i] of races.entries()) await services.leagues.create(consoleActor, { name: `L${i}` });
	const { code, out } = await type(
		races.flatMap(({ path }, i) => [`/race submit league:L${i} file:"${path}"`, 'confirm']),
	);
	expect(code).toBe(0);
	const answers = out.split('== Race preview').slice(1);
	expect(answers).toHaveLength(races.length);
	races.forEach(({ path, racers, inferred, format }, i) => {
		const answer = answers[i]!;
		const where = relative(root, path);
		expect(answer, where).toContain(`Read as ${format}`);
		expect(answer, where).toContain(`Stored as R1 in L${i}.`);
		if (inferred) expect(answer, where).toContain('inferred');
		expect(answer.match(/^(?:\d+\.|DNF|DNS|DSQ) /gmu)?.length, where).toBeGreaterThanOrEqual(racers);
	});
	expect(out).not.toContain('error:');
	expect(out).not.toContain('Something went wrong');

	// What the league stored is what `pitwall scoreboard --input` prints for the same file, row for row.
	for (const [i, { path }] of races.entries()) {
		let csv = '';
		const code = await main(['scoreboard', '--input', path], { out: (t) => void (csv += t), err: () => {} });
		expect(code).toBe(0);
		const state = await repo.loadState((await services.leagues.resolve(consoleActor, `L${i}`)).id);
		const stored = state
			.race('R1')!
			.entries.map((e) =>
				[state.resolve(e.player)!.name, e.position, e.time ?? '', e.status === 'finished' ? '' : e.status].join(','),
			);
		const printed = readCsv(csv)
			.slice(1)
			.map(({ fields }) =>
				[fields[0], Number(fields[1]), fields[2] === '' ? '' : Number(fields[2]), fields[3]].join(','),
			);
		expect(printed, relative(root, path)).toEqual(stored);
	}
});
