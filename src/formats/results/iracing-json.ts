import { cleanIracingName, iracingDate, iracingEntries, type IracingRow } from './iracing-classify.js';
import { ResultFileError, type ResultFile, type ResultReader } from './types.js';

/**
 * An iRacing subsession result as JSON: the data API's `/data/results/get` payload, or the same object as the site's
 * "export results" button saves it, wrapped as `{"type": "event_result", "data": {...}}`:
 * - `session_results[]`, one per sim session, each with `simsession_number` (0 for the main event, negative for the
 *   sessions before it: -2 practice, -1 qualifying, heats), `simsession_type_name` ("Open Practice",
 *   "Lone Qualifying", "Race", ...) and `results[]`; the files list the sessions in either order, so they are put in
 *   `simsession_number` order and the last race is read (the feature after heats);
 * - a result: `finish_position` counting from 0, `cust_id`, `display_name`, `reason_out` (Running, Disconnected,
 *   Disqualified, DQ/Scoring Invalidated...), `laps_complete`, `car_class_name` (older files only `car_class_id`,
 *   named in the top-level `car_classes[]`), `car_name`; times in ten-thousandths of a second, but no total race
 *   time (only `interval`, -1 for a lapped car, and `average_lap`), so none is given;
 * - a team event: each result is a car with `team_id` (negative) and the team's name, its drivers nested in
 *   `driver_results[]`: the car is the racer, named by its team (said in a warning).
 * Status and order: iracing-classify.ts.
 */

type Json = Record<string, unknown>;

interface Session {
	readonly results: readonly unknown[];
	readonly label: string;
	readonly race: boolean;
}

export const iracingJsonReader: ResultReader = {
	id: 'iracing-json',
	name: 'iRacing subsession result (JSON)',
	detect(text) {
		const head = text
			.slice(0, 2000)
			.replace(/^\uFEFF/u, '')
			.trimStart();
		return head.startsWith('{') && (/"subsession_id"\s*:/u.test(head) || /"type"\s*:\s*"event_result"/u.test(head));
	},
	read(text) {
		const result = subsessionOf(parse(text));
		const sessions = sessionsOf(result);
		const races = sessions.filter((s) => s.race);
		const race = races.at(-1);
		if (race === undefined) {
			const held = sessions.length === 0 ? 'no session' : sessions.map((s) => s.label).join(', ');
			throw new ResultFileError(`no race session in this iRacing result: it holds ${held}`);
		}
		const warnings: string[] = [];
		if (races.length > 1) {
			warnings.push(
				`the file holds ${races.length} race sessions (${races.map((s) => s.label).join(', ')}): ` +
					`the last, ${race.label}, is read`,
			);
		}
		const entries = iracingEntries(carsOf(race.results, classNames(result), warnings), warnings);
		if (entries.length === 0) throw new ResultFileError('the race session lists no racer');
		const track = trackOf(result.track);
		const date = iracingDate(str(result.start_time));
		const index = sessions.indexOf(race) + 1;
		return {
			format: 'iracing-json',
			formatName: 'iRacing subsession result (JSON)',
			...(sessions.length > 1 && { session: `race (session ${index} of ${sessions.length})` }),
			...(track !== undefined && { track }),
			...(date !== undefined && { date }),
			entries,
			warnings,
		} satisfies ResultFile;
	},
};

function parse(text: string): unknown {
	try {
		return JSON.parse(text.replace(/^\uFEFF/u, '')) as unknown;
	} catch (error) {
		const why = error instanceof Error ? error.message : String(error);
		throw new ResultFileError(`the JSON is broken or cut short (${why})`);
	}
}

/** The subsession object, bare (data API) or inside the site export's `{"type": "event_result", "data": ...}`. */
function subsessionOf(root: unknown): Json {
	if (!isObject(root)) throw new ResultFileError('not an iRacing subsession result: the JSON is not an object');
	const inner = root.data;
	const result = isObject(inner) && Array.isArray(inner.session_results) ? inner : root;
	if (!Array.isArray(result.session_results)) {
		throw new ResultFileError('not an iRacing subsession result: it has no "session_results"');
	}
	return result;
}

/** The sessions in the order they were run (`simsession_number` ascending; the file's order when it has none). */
function sessionsOf(result: Json): Session[] {
	const listed = (result.session_results as unknown[]).filter(isObject);
	const numbered = listed.every((s) => typeof s.simsession_number === 'number');
	const ordered = numbered
		? [...listed].sort((a, b) => (a.simsession_number as number) - (b.simsession_number as number))
		: listed;
	return ordered.map((data) => {
		const type = str(data.simsession_type_name) ?? '';
		const name = str(data.simsession_name) ?? '';
		const label =
			type !== '' && name !== '' && name.toLowerCase() !== type.toLowerCase() ? `${type} (${name})` : type || name;
		return {
			results: Array.isArray(data.results) ? data.results : [],
			label: label || 'an unnamed session',
			race: data.simsession_type === 6 || /race/iu.test(type),
		};
	});
}

/** `car_class_id` → name, from the top-level `car_classes[]` (older files name no class in the results). */
function classNames(result: Json): Map<number, string> {
	const names = new Map<number, string>();
	for (const c of Array.isArray(result.car_classes) ? result.car_classes : []) {
		if (!isObject(c) || typeof c.car_class_id !== 'number') continue;
		const name = str(c.name) ?? str(c.short_name);
		if (name !== undefined) names.set(c.car_class_id, name);
	}
	return names;
}

function carsOf(results: readonly unknown[], classes: Map<number, string>, warnings: string[]): IracingRow[] {
	const cars: { row: IracingRow; order: number }[] = [];
	const seen = new Set<string>();
	let teams = 0;
	let drivers = 0;
	results.filter(isObject).forEach((r, i) => {
		const name = cleanIracingName(str(r.display_name) ?? '');
		const custId = typeof r.cust_id === 'number' ? r.cust_id : undefined;
		const team = Array.isArray(r.driver_results) || (custId === undefined && typeof r.team_id === 'number');
		const laps = typeof r.laps_complete === 'number' && r.laps_complete >= 0 ? r.laps_complete : undefined;
		if (name === '') {
			// An empty slot is none; a car without a name cannot be rated: said.
			if (custId !== undefined || team || (laps ?? 0) > 0) {
				warnings.push(`a result without a display_name (cust_id ${custId ?? 'none'}) is left out`);
			}
			return;
		}
		if (team) {
			teams++;
			drivers += Array.isArray(r.driver_results) ? r.driver_results.length : 0;
		}
		const key = custId !== undefined && !team ? `id:${custId}` : `name:${name.toLowerCase()}`;
		if (seen.has(key)) {
			warnings.push(`${name} is listed twice in the race: the second result is left out`);
			return;
		}
		seen.add(key);
		if (laps === undefined) warnings.push(`${name} has no laps_complete: read as 0 laps`);
		let out = str(r.reason_out);
		if (out === undefined) {
			warnings.push(`${name} has no reason_out: taken as Running`);
			out = 'Running';
		}
		const position = typeof r.finish_position === 'number' ? r.finish_position + 1 : undefined;
		if (position === undefined) warnings.push(`${name} has no finish_position: placed after the others`);
		const classId = typeof r.car_class_id === 'number' ? r.car_class_id : undefined;
		const carClass =
			str(r.car_class_name) ??
			(classId === undefined ? undefined : classes.get(classId)) ??
			str(r.car_class_short_name);
		const car = str(r.car_name);
		const filePosition = position ?? results.length + i + 1;
		cars.push({
			order: filePosition,
			row: {
				name,
				filePosition,
				out,
				laps: laps ?? 0,
				...(carClass !== undefined && { carClass }),
				...(car !== undefined && { car }),
				...(!team && custId !== undefined && { simId: `iracing:${custId}` }),
			},
		});
	});
	if (teams > 0) {
		warnings.push(
			`a team event: each car is one racer, named by its team (${teams} cars); ` +
				`its ${drivers} drivers are not rated one by one`,
		);
	}
	return cars.sort((a, b) => a.order - b.order).map((c) => c.row);
}

/** "Daytona International Speedway - Road Course", as the CSV export names it; "N/A" is no layout. */
function trackOf(track: unknown): string | undefined {
	if (!isObject(track)) return undefined;
	const name = str(track.track_name);
	const config = str(track.config_name);
	if (name === undefined) return undefined;
	return config === undefined || /^n\/a$/iu.test(config) ? name : `${name} - ${config}`;
}

function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty trimmed string, else undefined. */
function str(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
