import { acClientRace, isAcClientFile } from './ac-client.js';
import {
	NO_LAP,
	cleanName,
	finishersFirst,
	inferredStatus,
	isoDay,
	numbered,
	sameNameWarnings,
	seconds,
	steamId,
	winnerOf,
} from './flag-rule.js';
import { int, objects, obj, parseJsonObject, str, type Json } from './json-value.js';
import { ResultFileError, type ResultEntry, type ResultFile, type ResultReader } from './types.js';

/**
 * Assetto Corsa's dedicated server result file (`results/YYYY_M_D_H_M_RACE.json`), as the server writes it or as a
 * server manager rewrites it (keys sorted, `Date`, and per result HasPenalty / PenaltyTime / LapPenalty /
 * Disqualified). Facts:
 * - one session a file: `Type` RACE, QUALIFY, PRACTICE (BOOKING); `TrackName`, `TrackConfig`;
 * - `Result[]`: one row a car slot with the driver last in it (DriverName, DriverGuid, CarModel, TotalTime and
 *   BestLap in ms; TotalTime 0 and BestLap 999999999 = no classified time). Its order is not to be trusted;
 *   empty slots have DriverName ""; a driver who reconnected is in other slots too, with TotalTime 0;
 * - `Laps[]`: every lap with its driver (DriverGuid, DriverName, CarId): a driver who left before the end is only
 *   here (their slot's row names whoever took it after);
 * - `Cars[]`: the entry list, with Driver.Team.
 * The rule: one racer a driver (Steam id, else name) over every slot; laps counted from Laps[]; total time from the
 * row that has one; order by laps, then total time (no time last); no finish status, so the one rule of flag-rule.ts.
 * A server manager's penalty (assetto-server-manager, MIT): PenaltyTime (Go nanoseconds) added to the total, LapPenalty
 * laps taken off and that many of the driver's last lap times taken off the added time (its own arithmetic), when
 * HasPenalty; Disqualified makes the racer DSQ, placed after everyone.
 * The game's own `race_out.json` (players[], sessions[]) is read by ac-client.ts.
 */

const NAME = 'Assetto Corsa server results';
const DETECT_CHARS = 2000;
/** Go's time.Duration in JSON: nanoseconds. */
const NS_PER_MS = 1_000_000;

export const acReader: ResultReader = {
	id: 'ac',
	name: NAME,
	detect(text: string): boolean {
		const head = text.slice(0, DETECT_CHARS).replace(/^\uFEFF/u, '');
		if (!/^\s*\{/u.test(head)) return false;
		if (isAcClientFile(head)) return true;
		// The server's own key order starts with TrackName; a server manager's sorted keys start with Cars[].Driver.
		return (
			(/"TrackName"\s*:/u.test(head) && /"(?:Type|TrackConfig|Cars|Result)"\s*:/u.test(head)) ||
			(/^\s*\{\s*"Cars"\s*:\s*\[/u.test(head) && /"Driver"\s*:/u.test(head) && /"Guid"\s*:/u.test(head))
		);
	},
	read(text: string): ResultFile {
		const data = parseJsonObject(text);
		if (isAcClientFile(text.slice(0, DETECT_CHARS).replace(/^\uFEFF/u, ''))) return acClientRace(data);
		raceOnly(data.Type);
		const warnings: string[] = [];
		const racers = racersOf(data, warnings);
		if (racers.length === 0) throw new ResultFileError('its Result and Laps name no driver: no racer to read');
		const ordered = racers.toSorted(
			(a, b) => b.laps - a.laps || (a.timeMs ?? Number.POSITIVE_INFINITY) - (b.timeMs ?? Number.POSITIVE_INFINITY),
		);
		const winner = winnerOf(ordered);
		if (winner === undefined) throw new ResultFileError(NO_LAP);
		const entries = finishersFirst(ordered.map((racer) => entryOf(racer, winner)));
		warnings.push(...sameNameWarnings(entries));
		const trackName = cleanName(str(data.TrackName) ?? '');
		const config = cleanName(str(data.TrackConfig) ?? '');
		const date = isoDay(data.Date);
		return {
			format: 'ac',
			formatName: NAME,
			session: 'race',
			...(trackName !== '' && { track: config === '' ? trackName : `${trackName} (${config})` }),
			...(date !== undefined && { date }),
			entries: numbered(entries),
			warnings,
		};
	},
};

function raceOnly(type: unknown): void {
	const label = typeof type === 'string' ? type.trim().toUpperCase() : '';
	if (label === 'RACE') return;
	const kind: Readonly<Record<string, string>> = {
		QUALIFY: 'a qualifying session',
		PRACTICE: 'a practice session',
		BOOKING: 'the booking session',
	};
	const stated = type === undefined ? 'no Type' : `Type ${JSON.stringify(type)}`;
	throw new ResultFileError(
		`the file holds ${kind[label] ?? 'a session that is not a race'} (${stated}), not a race: give the race's ` +
			'file (…_RACE.json)',
	);
}

interface Racer {
	readonly name: string;
	readonly guid: string;
	readonly slots: number[];
	laps: number;
	timeMs: number | undefined;
	car: string | undefined;
	team: string | undefined;
	lapsOnly: boolean;
	disqualified: boolean;
	/** Laps a server manager's penalty takes off. */
	lapPenalty: number;
	readonly penalties: string[];
}

const keyOf = (guid: string, name: string) => (guid === '' ? `name:${name.toLowerCase()}` : guid);

function racersOf(data: Json, warnings: string[]): Racer[] {
	const racers = new Map<string, Racer>();
	const laps = objects(data.Laps);
	for (const row of objects(data.Result)) {
		const name = cleanName(str(row.DriverName) ?? '');
		const guid = (str(row.DriverGuid) ?? '').trim();
		if (name === '' && guid === '') continue; // an empty slot
		const key = keyOf(guid, name);
		const racer = racers.get(key) ?? newRacer(name, guid);
		racers.set(key, racer);
		const slot = int(row.CarId);
		if (slot !== undefined) racer.slots.push(slot);
		const total = int(row.TotalTime) ?? 0;
		if (total > 0 && racer.timeMs === undefined) {
			racer.timeMs = total + managerPenalty(row, lastLapMs(laps, key), racer);
			racer.car = str(row.CarModel);
		}
		racer.car ??= str(row.CarModel);
		if (row.Disqualified === true && !racer.disqualified) {
			racer.disqualified = true;
			racer.penalties.push('disqualified');
		}
	}
	for (const lap of laps) {
		const name = cleanName(str(lap.DriverName) ?? '');
		const guid = (str(lap.DriverGuid) ?? '').trim();
		if (name === '' && guid === '') continue;
		const key = keyOf(guid, name);
		let racer = racers.get(key);
		if (racer === undefined) {
			racer = { ...newRacer(name, guid), car: str(lap.CarModel), lapsOnly: true };
			racers.set(key, racer);
		}
		racer.laps++;
	}
	teamsOf(data, racers);
	for (const racer of racers.values()) {
		racer.laps = Math.max(0, racer.laps - racer.lapPenalty);
		notes(racer, warnings);
	}
	return [...racers.values()];
}

function newRacer(name: string, guid: string): Racer {
	return {
		name,
		guid,
		slots: [],
		laps: 0,
		timeMs: undefined,
		car: undefined,
		team: undefined,
		lapsOnly: false,
		disqualified: false,
		lapPenalty: 0,
		penalties: [],
	};
}

/**
 * A server manager's penalty on the row that has the time: the ms to add (0 without one). Its lap penalty is kept on
 * the racer, to take off once the laps are counted.
 */
function managerPenalty(row: Json, lastLapMs: number, racer: Racer): number {
	if (row.HasPenalty !== true) return 0;
	const penaltyMs = Math.round((int(row.PenaltyTime) ?? 0) / NS_PER_MS);
	racer.lapPenalty = Math.max(0, int(row.LapPenalty) ?? 0);
	if (penaltyMs > 0) racer.penalties.push(`+${seconds(penaltyMs)} s`);
	if (racer.lapPenalty > 0) racer.penalties.push(`-${racer.lapPenalty} ${racer.lapPenalty === 1 ? 'lap' : 'laps'}`);
	return penaltyMs - racer.lapPenalty * lastLapMs;
}

function lastLapMs(laps: readonly Json[], key: string): number {
	const own = laps.filter(
		(lap) => keyOf((str(lap.DriverGuid) ?? '').trim(), cleanName(str(lap.DriverName) ?? '')) === key,
	);
	return int(own.at(-1)?.LapTime) ?? 0;
}

function teamsOf(data: Json, racers: ReadonlyMap<string, Racer>): void {
	for (const car of objects(data.Cars)) {
		const driver = obj(car.Driver);
		const team = cleanName(str(driver?.Team) ?? '');
		if (driver === undefined || team === '') continue;
		const racer = racers.get(keyOf((str(driver.Guid) ?? '').trim(), cleanName(str(driver.Name) ?? '')));
		if (racer !== undefined) racer.team ??= team;
	}
}

function notes(racer: Racer, warnings: string[]): void {
	if (racer.lapsOnly) {
		warnings.push(
			`"${racer.name}": ${racer.laps} ${racer.laps === 1 ? 'lap' : 'laps'} in the lap list but no row of the ` +
				"server's Result (left before the end): read from the laps",
		);
	}
	const slots = [...new Set(racer.slots)];
	if (slots.length > 1) {
		warnings.push(`"${racer.name}" in ${slots.length} car slots (${slots.join(', ')}): reconnected, one entry`);
	}
}

function entryOf(racer: Racer, winner: Racer): Omit<ResultEntry, 'position' | 'classPosition'> {
	const status = racer.disqualified ? 'DSQ' : inferredStatus(racer, winner);
	const simId = steamId(racer.guid);
	return {
		name: racer.name === '' ? `Car ${racer.slots[0] ?? '?'}` : racer.name,
		status,
		...(status !== 'DSQ' && { statusInferred: true }),
		...(racer.timeMs !== undefined && { totalTime: seconds(racer.timeMs) }),
		laps: racer.laps,
		...(simId !== undefined && { simId }),
		...(racer.team !== undefined && { team: racer.team }),
		...(racer.car !== undefined && racer.car !== '' && { car: racer.car }),
		...(racer.penalties.length > 0 && { penalties: racer.penalties }),
	};
}
