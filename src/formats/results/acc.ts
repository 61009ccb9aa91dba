import { accCar } from './acc-cars.js';
import { accPenalties, type CarPenalties } from './acc-penalties.js';
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
import { int, obj, parseJsonObject, str } from './json-value.js';
import { ResultFileError, type ResultEntry, type ResultFile, type ResultReader } from './types.js';

/**
 * Assetto Corsa Competizione's dedicated server result file (`results/YYMMDD_HHMMSS_R.json`). Facts:
 * - UTF-16 LE with or without a byte order mark (decode.ts reads it); one session a file: `sessionType` "R" (R1,
 *   R2 on multi-race weekends), "Q", "FP", or a number (10 race, 4 qualifying, 0 practice);
 * - `sessionResult.leaderBoardLines` in classification order: `car` (carId, raceNumber, carModel as a number,
 *   carGroup in newer files, cupCategory, teamName, drivers[] with firstName/lastName/shortName/playerId "S7656…"),
 *   `timing` (totalTime and bestLap in ms, 2147483647 = none; lapCount);
 * - no finish status: read by the one rule of flag-rule.ts (a car short of the winner's laps whose total is below the
 *   winner's never took the flag);
 * - `penalties[]` and `post_race_penalties[]`: see acc-penalties.ts (a post-race time is already in totalTime; a
 *   disqualification makes the car DSQ, placed after everyone);
 * - a league may write the team after a line break inside lastName ("Siv\nTEAMname");
 * - several drivers a car (driver swaps): the car is named by its drivers joined " / " in the file's order (the same
 *   pairing reads the same every race), simId from the first driver;
 * - a driver who rejoins gets another car (another carId): lines whose first driver is the same (Steam id, else name)
 *   are one entry, the better placed line kept.
 * Class: carGroup, else the car model's group (acc-cars.ts); class positions counted in overall order.
 */

const NAME = 'Assetto Corsa Competizione server results';
/** int32 max: ACC's "no time" for a car without a lap (larger values, seen on 0-lap cars, mean the same). */
const NO_TIME = 2_147_483_647;
const DETECT_CHARS = 2000;

export const accReader: ResultReader = {
	id: 'acc',
	name: NAME,
	detect(text: string): boolean {
		const head = text.slice(0, DETECT_CHARS).replace(/^\uFEFF/u, '');
		return (
			/^\s*\{/u.test(head) &&
			/"sessionType"\s*:/u.test(head) &&
			/"(?:trackName|sessionIndex|raceWeekendIndex|sessionResult)"\s*:/u.test(head)
		);
	},
	read(text: string): ResultFile {
		const data = parseJsonObject(text);
		const session = raceSession(data.sessionType, data.sessionIndex);
		const lines = obj(data.sessionResult)?.leaderBoardLines;
		if (!Array.isArray(lines)) {
			throw new ResultFileError('the file has no leaderboard (sessionResult.leaderBoardLines): no racer to read');
		}
		const warnings: string[] = [];
		const lineCars = lines.flatMap((line) => carOf(line));
		const carName = (carId: number) => {
			const car = lineCars.find((c) => c.carId === carId);
			return car === undefined ? `car id ${carId}` : `"${car.name}" (car #${car.raceNumber})`;
		};
		const penalties = accPenalties(data.penalties, data.post_race_penalties, carName, warnings);
		for (const car of lineCars) withPenalties(car, penalties.get(car.carId ?? Number.NaN));
		const cars = mergeRejoins(lineCars, warnings);
		if (cars.length === 0) throw new ResultFileError('its leaderboard holds no car: no racer to read');
		const winner = winnerOf(cars);
		if (winner === undefined) throw new ResultFileError(NO_LAP);
		const entries = finishersFirst(cars.map((car) => entryOf(car, winner)));
		const multi = cars.filter((car) => car.drivers > 1).length;
		if (multi > 0) {
			warnings.push(
				`${multi} ${multi === 1 ? 'car' : 'cars'} with several drivers: each named by its drivers joined " / ", ` +
					"with the first driver's Steam id",
			);
		}
		warnings.push(...sameNameWarnings(entries));
		const track = str(data.trackName);
		const date = isoDay(data.Date);
		return {
			format: 'acc',
			formatName: NAME,
			session,
			...(track !== undefined && { track }),
			...(date !== undefined && { date }),
			entries: numbered(entries),
			warnings,
		};
	},
};

interface AccCarLine {
	readonly carId: number | undefined;
	readonly name: string;
	readonly key: string;
	readonly drivers: number;
	readonly raceNumber: string;
	readonly laps: number;
	readonly timeMs: number | undefined;
	disqualified: boolean;
	readonly penalties: string[];
	reason: string | undefined;
	readonly simId?: string;
	readonly team?: string;
	readonly car?: string;
	readonly carClass?: string;
}

/** ACC's numbers for session types (the broadcasting SDK's RaceSessionType), as a client file writes them. */
const NUMBERED_TYPES: Readonly<Record<number, string>> = { 0: 'FP', 4: 'Q', 10: 'R' };

/** "race (weekend session 3)", "race 2 (weekend session 4)"; throws for a session that is not a race, naming it. */
function raceSession(type: unknown, index: unknown): string {
	const label =
		typeof type === 'number' ? (NUMBERED_TYPES[type] ?? '') : typeof type === 'string' ? type.trim().toUpperCase() : '';
	const race = /^R(\d*)$/u.exec(label);
	if (race !== null) {
		const where = typeof index === 'number' ? ` (weekend session ${index + 1})` : '';
		return `race${race[1] === '' ? '' : ` ${race[1]}`}${where}`;
	}
	const kind = label.startsWith('Q')
		? 'a qualifying session'
		: /^(?:FP|P)/u.test(label)
			? 'a practice session'
			: 'a session that is not a race';
	const stated = type === undefined ? 'no sessionType' : `sessionType ${JSON.stringify(type)}`;
	throw new ResultFileError(`the file holds ${kind} (${stated}), not a race: give the race's file (…_R.json)`);
}

interface DriverName {
	readonly name: string;
	readonly team?: string;
	readonly simId?: string;
}

function driverOf(raw: unknown): DriverName | undefined {
	const driver = obj(raw);
	if (driver === undefined) return undefined;
	// A league's team written after a line break inside the last name: "Siv\nTEAMname".
	const [last = '', ...teamLines] = (str(driver.lastName) ?? '').split(/\r?\n/u);
	const name = cleanName(`${str(driver.firstName) ?? ''} ${last}`) || cleanName(str(driver.shortName) ?? '');
	const team = cleanName(teamLines.join(' '));
	const simId = steamId(driver.playerId);
	if (name === '' && simId === undefined) return undefined;
	return { name, ...(team !== '' && { team }), ...(simId !== undefined && { simId }) };
}

function carOf(raw: unknown): AccCarLine[] {
	const line = obj(raw);
	const car = obj(line?.car);
	if (line === undefined || car === undefined) return [];
	const timing = obj(line.timing);
	const drivers = (Array.isArray(car.drivers) ? car.drivers : []).flatMap((d) => driverOf(d) ?? []);
	const laps = int(timing?.lapCount) ?? 0;
	const total = int(timing?.totalTime);
	const raceNumber = int(car.raceNumber)?.toString() ?? '?';
	const names = [...new Map(drivers.filter((d) => d.name !== '').map((d) => [d.name.toLowerCase(), d.name])).values()];
	// An empty slot (nobody named, no lap) is no racer.
	if (names.length === 0 && laps === 0) return [];
	const name = names.length > 0 ? names.join(' / ') : `Car #${raceNumber}`;
	const first = drivers[0];
	const team = cleanName(str(car.teamName) ?? '') || drivers.find((d) => d.team !== undefined)?.team;
	const model = accCar(car.carModel);
	const group = cleanName(str(car.carGroup) ?? '') || model.group;
	return [
		{
			carId: int(car.carId),
			name,
			key: first?.simId ?? `name:${name.toLowerCase()}`,
			drivers: names.length,
			raceNumber,
			laps,
			timeMs: total !== undefined && total > 0 && total < NO_TIME ? total : undefined,
			disqualified: false,
			penalties: [],
			reason: undefined,
			...(first?.simId !== undefined && { simId: first.simId }),
			...(team !== undefined && team !== '' && { team }),
			...(model.name !== undefined && { car: model.name }),
			...(group !== undefined && group !== '' && { carClass: group }),
		},
	];
}

function withPenalties(car: AccCarLine, penalties: CarPenalties | undefined): void {
	if (penalties === undefined) return;
	car.penalties.push(...penalties.words);
	car.disqualified = penalties.disqualified;
	car.reason = penalties.disqualifiedFor;
}

/** A driver who rejoined got another car: one entry, the line placed better (first in the file) kept. */
function mergeRejoins(cars: readonly AccCarLine[], warnings: string[]): AccCarLine[] {
	const kept = new Map<string, AccCarLine>();
	for (const car of cars) {
		const first = kept.get(car.key);
		if (first === undefined) {
			kept.set(car.key, car);
			continue;
		}
		first.penalties.push(...car.penalties);
		if (car.disqualified && !first.disqualified) {
			first.disqualified = true;
			first.reason = car.reason;
		}
		warnings.push(
			`"${first.name}" also in car #${car.raceNumber} (${car.laps} ${car.laps === 1 ? 'lap' : 'laps'}): ` +
				`rejoined in another car, one entry (car #${first.raceNumber} kept)`,
		);
	}
	return [...kept.values()];
}

function entryOf(car: AccCarLine, winner: AccCarLine): Omit<ResultEntry, 'position' | 'classPosition'> {
	const status = car.disqualified ? 'DSQ' : inferredStatus(car, winner);
	return {
		name: car.name,
		status,
		...(status !== 'DSQ' && { statusInferred: true }),
		...(status === 'DSQ' && car.reason !== undefined && { reason: car.reason }),
		...(car.timeMs !== undefined && { totalTime: seconds(car.timeMs) }),
		laps: car.laps,
		...(car.carClass !== undefined && { carClass: car.carClass }),
		...(car.simId !== undefined && { simId: car.simId }),
		...(car.team !== undefined && { team: car.team }),
		...(car.car !== undefined && { car: car.car }),
		...(car.penalties.length > 0 && { penalties: car.penalties }),
	};
}
