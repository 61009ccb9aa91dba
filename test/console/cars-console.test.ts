/**
 * Cars as an organizer meets them in the console: a history CSV with a car column imported and exported back byte for
 * byte, a bad car name refused with the file's line and nothing stored, and a sim's result file whose cars reach the
 * export with no typing (real router, services, memory store).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { readCsv } from '../../src/formats/csv.js';
import { raceInputOf } from '../../src/console/sample-league.js';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { RESULTS_DIR } from '../formats/results/support.js';
import { consoleActor, consoleWorld } from './console-session.js';

const dir = mkdtempSync(join(tmpdir(), 'pitwall-cars-console-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HISTORY =
	'race,date,player,position,time,status,car\n' +
	'Monza,2026-03-01,Ann,1,3601.5,,Porsche 992 GT3 R\n' +
	'Monza,2026-03-01,Bob,2,3603.25,,Ferrari 296 GT3\n' +
	'Monza,2026-03-01,Cy,3,,DNF,"BMW M4 GT3, Evo"\n' +
	'Spa,2026-03-08,Bob,1,3700,,Ferrari 296 GT3\n' +
	'Spa,2026-03-08,Ann,2,3702,,Porsche 992 GT3 R\n' +
	'Spa,2026-03-08,Cy,3,3710,,\n';

/** The history file the export wrote, by the path the console printed. */
function exported(out: string): string {
	const path = /file written: (\S+-history\.csv)/u.exec(out)?.[1];
	expect(path).toBeDefined();
	return readFileSync(path!, 'utf8');
}

describe('cars in the console', () => {
	const now = () => new Date('2026-03-20T12:00:00Z');

	it('/league import of a history CSV with cars, then /league export, gives back the same file', async () => {
		const file = join(dir, 'gt3.csv');
		writeFileSync(file, HISTORY);
		const { type } = consoleWorld(now, join(dir, 'out1'));
		const { code, out } = await type(['/league create name:GT', `/league import file:${file}`, '/league export']);
		expect(code).toBe(0);
		expect(out).toContain('Imported 2 races into GT from gt3.csv (history CSV): 3 new players, 6 results.');
		expect(exported(out)).toBe(HISTORY);
	});

	it('a car name of 65 characters is refused with its line, and nothing is stored', async () => {
		const file = join(dir, 'long.csv');
		writeFileSync(file, HISTORY.replace('Ferrari 296 GT3\nMonza', `${'F'.repeat(65)}\nMonza`));
		const { type, services, repo } = consoleWorld(now, join(dir, 'out2'));
		const { out } = await type(['/league create name:GT', `/league import file:${file}`]);
		expect(out).toContain(`long.csv:3: the car name "${'F'.repeat(20)}…" is longer than 64 characters`);
		expect(out).toContain('Nothing was imported');
		const league = await services.leagues.resolve(consoleActor, 'GT');
		expect((await repo.loadState(league.id)).races()).toEqual([]);
	});

	it('a sim’s result file submitted and confirmed: its cars are in the export, typed by nobody', async () => {
		const acc = join(RESULTS_DIR, 'mauserrifle-simresults/assettocorsa-competizione/191003_235558_R.json');
		const { type } = consoleWorld(now, join(dir, 'out3'));
		const { out } = await type(['/league create name:ACC', `/race submit file:"${acc}"`, 'confirm', '/league export']);
		expect(out).toContain('Stored as R1 in ACC.');
		const text = exported(out);
		// The file's own team ("Siv\nTEAMname") is written too, beside the car: both columns come from the file.
		expect(text.split('\n')[0]).toBe('race,date,player,position,time,status,team,car');
		const [race] = parseHistoryCsv(text);
		expect(race!.entries.map((e) => [e.player, e.car])).toEqual([
			['Andrea Mel', 'Mercedes-AMG GT3'],
			['Alberto For', 'Audi R8 LMS'],
			['Federico Siv', 'Audi R8 LMS'],
		]);
		// `pitwall scoreboard --input` prints the same cars as what the league stored.
		let csv = '';
		expect(await main(['scoreboard', '--input', acc], { out: (t) => void (csv += t), err: () => {} })).toBe(0);
		const [header, ...rows] = readCsv(csv).map((r) => r.fields);
		const car = header!.indexOf('car');
		expect(rows.map((r) => [r[0], r[car]])).toEqual(race!.entries.map((e) => [e.player, e.car]));
	});

	it('a history race becomes a submission with its teams and cars (the console’s sample league reads them so)', () => {
		const [monza] = parseHistoryCsv(HISTORY);
		expect(raceInputOf(monza!).entries.map((e) => e.car)).toEqual([
			'Porsche 992 GT3 R',
			'Ferrari 296 GT3',
			'BMW M4 GT3, Evo',
		]);
		const [withTeam] = parseHistoryCsv('race,player,position,team,car\nR1,Ann,1,Red,RB20\n');
		expect(raceInputOf(withTeam!).entries[0]).toMatchObject({ team: 'Red', car: 'RB20' });
	});
});
