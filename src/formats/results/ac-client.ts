import { NO_LAP, cleanName, finishersFirst, inferredStatus, numbered, seconds, winnerOf } from './flag-rule.js';
import { int, obj, objects, str, type Json } from './json-value.js';
import { ResultFileError, type ResultEntry, type ResultFile } from './types.js';

/**
 * Assetto Corsa's own `race_out.json` (Documents/Assetto Corsa/out), written by the game after the sessions it ran
 * offline or joined online. Facts (mauserrifle/simresults tests/logs/assettocorsa):
 * - `players[]` {name, car, skin}: no Steam id, no team;
 * - `sessions[]` {name, type (1 practice, 2 qualifying, 3 race), laps[] {car: index into players, lap, time in ms},
 *   lapstotal[] by car, raceResult[]: car indices in finishing order, -1 where a place names nobody};
 * - a name with an accent comes out with each UTF-8 byte from 0x80 widened to U+FF80..U+FFFF ("Kundlￃﾡk" for
 *   "Kundlák"): put back where the widened bytes are valid UTF-8, said in a warning.
 * The rule: the last race session (type 3); its raceResult order; laps from lapstotal; the total time is the sum of
 * the car's lap times; no status, so the one rule of flag-rule.ts; a player missing from raceResult comes after.
 */

const NAME = 'Assetto Corsa results (race_out.json)';
const RACE_TYPE = 3;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The game's file, by its first keys: a `track` and `players` of {name, …}. */
export function isAcClientFile(head: string): boolean {
	return /"players"\s*:\s*\[\s*\{\s*"name"\s*:/u.test(head) && /"track"\s*:/u.test(head);
}

interface ClientCar {
	readonly index: number;
	readonly name: string;
	readonly car: string | undefined;
	readonly laps: number;
	readonly timeMs: number | undefined;
	readonly disqualified: false;
}

export function acClientRace(data: Json): ResultFile {
	const sessions = objects(data.sessions);
	if (sessions.length === 0) throw new ResultFileError('the file holds no session: no race to read');
	const raceAt = sessions.findLastIndex((s) => int(s.type) === RACE_TYPE);
	const race = sessions[raceAt];
	if (race === undefined) {
		const held = sessions.map((s, i) => `"${str(s.name) ?? `session ${i + 1}`}"`).join(', ');
		throw new ResultFileError(`the file holds no race session: it holds ${held}`);
	}
	const warnings: string[] = [];
	const players = Array.isArray(data.players) ? data.players : [];
	const cars = players.map((player, index) => clientCar(player, index, race, warnings));
	const order = placesOf(race.raceResult, cars.length, warnings);
	const unplaced = cars.filter((car) => !order.includes(car.index) && (car.name !== '' || car.laps > 0));
	for (const car of unplaced.filter((c) => c.laps > 0)) {
		warnings.push(`"${car.name}": not in the race result (${car.laps} laps): placed after the cars it lists`);
	}
	const placed = [...order.flatMap((i) => cars[i] ?? []), ...unplaced].filter((c) => c.name !== '' || c.laps > 0);
	if (placed.length === 0) throw new ResultFileError('its race session names no driver: no racer to read');
	const winner = winnerOf(placed);
	if (winner === undefined) throw new ResultFileError(NO_LAP);
	const entries = finishersFirst(placed.map((car) => entryOf(car, winner)));
	const track = cleanName(str(data.track) ?? '');
	return {
		format: 'ac',
		formatName: NAME,
		session: sessions.length > 1 ? `race (session ${raceAt + 1} of ${sessions.length})` : 'race',
		...(track !== '' && { track }),
		entries: numbered(entries),
		warnings,
	};
}

function clientCar(player: unknown, index: number, race: Json, warnings: string[]): ClientCar {
	const fields = obj(player) ?? {};
	const raw = cleanName(str(fields.name) ?? '');
	const name = widenedUtf8(raw);
	if (name !== raw) warnings.push(`"${name}": written by the game as "${raw}", read as UTF-8`);
	const times = objects(race.laps)
		.filter((lap) => int(lap.car) === index)
		.map((lap) => int(lap.time) ?? 0);
	const listed = Array.isArray(race.lapstotal) ? int(race.lapstotal[index]) : undefined;
	const positive = times.filter((t) => t > 0);
	return {
		index,
		name,
		car: str(fields.car),
		laps: listed ?? times.length,
		timeMs: positive.length > 0 ? positive.reduce((sum, t) => sum + t, 0) : undefined,
		disqualified: false,
	};
}

/** raceResult's car indices, each once; a place that names no car (-1, out of range) is left out and said. */
function placesOf(raceResult: unknown, cars: number, warnings: string[]): number[] {
	const places = Array.isArray(raceResult) ? raceResult : [];
	const order: number[] = [];
	places.forEach((value, i) => {
		const index = int(value);
		if (index === undefined || index < 0 || index >= cars) {
			warnings.push(`place ${i + 1} of the race result names no car (${JSON.stringify(value)}): left out`);
		} else if (!order.includes(index)) {
			order.push(index);
		}
	});
	return order;
}

function entryOf(car: ClientCar, winner: ClientCar): Omit<ResultEntry, 'position' | 'classPosition'> {
	return {
		name: car.name === '' ? `Car ${car.index + 1}` : car.name,
		status: inferredStatus(car, winner),
		statusInferred: true,
		...(car.timeMs !== undefined && { totalTime: seconds(car.timeMs) }),
		laps: car.laps,
		...(car.car !== undefined && car.car !== '' && { car: car.car }),
	};
}

/** Runs of U+FF80..U+FFFF read back as the UTF-8 bytes they widen, when those bytes are valid UTF-8. */
function widenedUtf8(name: string): string {
	return name.replace(/[\uFF80-\uFFFF]+/gu, (run) => {
		const bytes = Uint8Array.from([...run].map((char) => char.charCodeAt(0) & 0xff));
		try {
			return strictUtf8.decode(bytes);
		} catch {
			return run;
		}
	});
}
