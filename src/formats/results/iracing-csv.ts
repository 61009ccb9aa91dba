import { CsvError, readCsv, type CsvRow } from '../csv.js';
import { cleanIracingName, iracingDate, iracingEntries, type IracingRow } from './iracing-classify.js';
import { ResultFileError, type ResultFile, type ResultReader } from './types.js';

/**
 * The iRacing members-site results export (`eventresult_<subsession>.csv`, one session per file):
 * - Windows-1252 (decode.ts reads it); a preamble before the results: `"Start Time","Track","Series",...` and its
 *   values, for a league also `"League Name",...` and its values, with blank lines (8 lines for a hosted league
 *   race, 3 for an official one); users sometimes cut it, so the header row is found by its `Fin Pos` cell;
 * - the header `"Fin Pos","Car ID","Car","Car Class ID","Car Class","Team ID","Cust ID","Name","Start Pos",...,
 *   "Out","Interval",...,"Laps Comp","Inc",...`: its columns change with the export's version and the event's kind
 *   (official, hosted, league), so every column is found by its name (older exports: `Custid`, `Driver`);
 * - rows in iRacing's classification order by `Fin Pos`; `Out` is Running, Disconnected, Disqualified,
 *   DQ/Scoring Invalidated...; `Interval` is "-12.487" or "-2 L": there is no total time, so none is given;
 * - the file does not name its session: practice and qualifying exports look the same as the race's, except that
 *   no car has a starting position there (`Start Pos` 0), so a file where no car has one is refused as not a race;
 *   when several result tables are pasted into one file, the last race among them is read;
 * - a team event lists one row per car with the team's name and a negative `Cust ID` (the team's id), then a row
 *   per driver of that car with the same `Fin Pos`: the car is the racer (named by its team), its drivers' rows
 *   are not rated one by one (said in a warning);
 * - `Cust ID` is the driver's iRacing id (`iracing:<id>`); a name may end with iRacing's disambiguating digit
 *   ("Pablo Rangel2"): it is part of the name and kept.
 * Status and order: iracing-classify.ts.
 */

const COLUMNS = {
	finPos: ['Fin Pos'],
	name: ['Name', 'Driver'],
	custId: ['Cust ID', 'Custid'],
	teamId: ['Team ID'],
	car: ['Car'],
	carClass: ['Car Class'],
	startPos: ['Start Pos'],
	out: ['Out'],
	laps: ['Laps Comp'],
} as const;
type Column = keyof typeof COLUMNS;
const REQUIRED: readonly Column[] = ['name', 'out', 'laps'];

type Columns = Partial<Record<Column, number>>;

interface Section {
	readonly header: CsvRow;
	readonly rows: readonly CsvRow[];
	readonly columns: Columns;
}

export const iracingCsvReader: ResultReader = {
	id: 'iracing-csv',
	name: 'iRacing results export (CSV)',
	detect(text) {
		// The preamble's first row (every export version starts "Start Time","Track","Series"), or the results header
		// itself when the preamble was cut off.
		const head = withoutBom(text).slice(0, 400).trimStart();
		return (
			/^"?Start Time"?\s*,\s*"?Track"?\s*,\s*"?Series"?\s*,/u.test(head) ||
			/^"?Fin Pos"?\s*,\s*"?Car ID"?\s*,/u.test(head)
		);
	},
	read(text) {
		const rows = csvRows(withoutBom(text));
		const sections = sectionsOf(rows);
		if (sections.every((s) => s.rows.length === 0)) throw new ResultFileError('the results table lists no racer');
		const races = sections.filter(isRace);
		const race = races.at(-1);
		if (race === undefined) {
			throw new ResultFileError(
				sections.length === 1
					? 'this export is a practice or qualifying session, not a race (no car has a starting position): ' +
							"export the race session's results"
					: `none of the ${sections.length} result tables of this file is a race (no car has a starting position)`,
			);
		}
		const warnings: string[] = [];
		if (race.columns.startPos === undefined) {
			warnings.push(`line ${race.header.line}: no "Start Pos" column: the results are taken as a race`);
		}
		const entries = iracingEntries(carsOf(race, warnings), warnings);
		if (entries.length === 0) throw new ResultFileError('the results table lists no racer');
		const summary = summaryBefore(rows, race.header.line);
		const track = summary.get('track')?.trim();
		const date = iracingDate(summary.get('start time'));
		const index = sections.indexOf(race) + 1;
		return {
			format: 'iracing-csv',
			formatName: 'iRacing results export (CSV)',
			...(sections.length > 1 && { session: `race (session ${index} of ${sections.length})` }),
			...(track !== undefined && track !== '' && { track }),
			...(date !== undefined && { date }),
			entries,
			warnings,
		} satisfies ResultFile;
	},
};

function withoutBom(text: string): string {
	return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function csvRows(text: string): CsvRow[] {
	try {
		return readCsv(text);
	} catch (error) {
		if (error instanceof CsvError) throw new ResultFileError(`not a readable CSV: ${error.message}`);
		throw error;
	}
}

const firstCell = (row: CsvRow) => (row.fields[0] ?? '').trim().toLowerCase();
const isHeader = (row: CsvRow) => firstCell(row) === 'fin pos';
const isPreamble = (row: CsvRow) => firstCell(row) === 'start time';

/** Every results table: a `Fin Pos` header and the rows up to the next header or the next export's preamble. */
function sectionsOf(rows: readonly CsvRow[]): Section[] {
	const sections: Section[] = [];
	for (let i = 0; i < rows.length; i++) {
		const header = rows[i]!;
		if (!isHeader(header)) continue;
		let end = i + 1;
		while (end < rows.length && !isHeader(rows[end]!) && !isPreamble(rows[end]!)) end++;
		sections.push({ header, rows: rows.slice(i + 1, end), columns: columnsOf(header) });
	}
	if (sections.length === 0) throw new ResultFileError('no results table: the "Fin Pos" header row is missing');
	return sections;
}

function columnsOf(header: CsvRow): Columns {
	const names = header.fields.map((f) => f.trim().toLowerCase());
	const columns: Columns = {};
	for (const [column, aliases] of Object.entries(COLUMNS) as [Column, readonly string[]][]) {
		const at = names.findIndex((n) => aliases.some((a) => a.toLowerCase() === n));
		if (at >= 0) columns[column] = at;
	}
	const missing = REQUIRED.filter((c) => columns[c] === undefined);
	if (missing.length > 0) {
		const list = missing.map((c) => `"${COLUMNS[c][0]}"`).join(', ');
		throw new ResultFileError(`line ${header.line}: the results header has no ${list} column`);
	}
	return columns;
}

/** In a practice or qualifying export every `Start Pos` is 0; a race has a grid. */
function isRace(section: Section): boolean {
	const at = section.columns.startPos;
	if (at === undefined) return true;
	return section.rows.some((row) => (integer(row.fields[at]) ?? 0) > 0);
}

function carsOf(section: Section, warnings: string[]): IracingRow[] {
	const c = section.columns;
	const cell = (row: CsvRow, column: Column) => {
		const at = c[column];
		return at === undefined ? '' : (row.fields[at] ?? '').trim();
	};
	const teamEvent = section.rows.some((row) => (integer(cell(row, 'custId')) ?? 0) < 0);
	const cars: { row: IracingRow; order: number }[] = [];
	const seen = new Set<string>();
	let driverRows = 0;
	for (const row of section.rows) {
		const name = cleanIracingName(cell(row, 'name'));
		const custId = integer(cell(row, 'custId'));
		const lapsText = cell(row, 'laps');
		if (name === '') {
			// An empty slot is none; a car without a name cannot be rated: said.
			if (custId !== undefined || (integer(lapsText) ?? 0) > 0) {
				warnings.push(`line ${row.line}: a car without a name (Cust ID ${custId ?? 'none'}) is left out`);
			}
			continue;
		}
		// A team event: the car's row has the team's (negative) id; its drivers' rows follow it.
		if (teamEvent && custId !== undefined && custId > 0) {
			driverRows++;
			continue;
		}
		const finPos = integer(cell(row, 'finPos'));
		if (finPos === undefined) {
			warnings.push(`line ${row.line}: no finishing position ("${cell(row, 'finPos')}"): ${name} left out`);
			continue;
		}
		const key = custId === undefined ? `name:${name.toLowerCase()}` : `id:${custId}`;
		if (seen.has(key)) {
			warnings.push(`line ${row.line}: ${name} is listed twice: the second row is left out`);
			continue;
		}
		seen.add(key);
		let laps = integer(lapsText);
		if (laps === undefined || laps < 0) {
			warnings.push(`line ${row.line}: ${name}'s laps ("${lapsText}") are not a number: read as 0`);
			laps = 0;
		}
		const carClass = cell(row, 'carClass');
		const car = cell(row, 'car');
		cars.push({
			order: finPos,
			row: {
				name,
				filePosition: finPos,
				out: cell(row, 'out'),
				laps,
				...(carClass !== '' && { carClass }),
				...(car !== '' && { car }),
				...(custId !== undefined && custId > 0 && { simId: `iracing:${custId}` }),
			},
		});
	}
	if (teamEvent) {
		warnings.push(
			`a team event: each car is one racer, named by its team (${cars.length} cars); ` +
				`the ${driverRows} driver rows under them are not rated one by one`,
		);
	}
	// The rows are in Fin Pos order already; sorting (stable) only guards a file edited by hand.
	return cars.sort((a, b) => a.order - b.order).map((c) => c.row);
}

/** The `Start Time`, `Track`, ... row closest above the results header, with the row of values under it. */
function summaryBefore(rows: readonly CsvRow[], headerLine: number): Map<string, string> {
	const summary = new Map<string, string>();
	let at = -1;
	for (let i = 0; i < rows.length && rows[i]!.line < headerLine; i++) if (isPreamble(rows[i]!)) at = i;
	const names = rows[at]?.fields;
	const values = rows[at + 1]?.fields;
	if (at < 0 || names === undefined || values === undefined) return summary;
	names.forEach((name, i) => summary.set(name.trim().toLowerCase(), values[i] ?? ''));
	return summary;
}

function integer(text: string | undefined): number | undefined {
	const t = (text ?? '').trim();
	return /^-?\d+$/u.test(t) ? Number(t) : undefined;
}
