import type { EntryStatus } from '../../ratings/types.js';
import {
	cleanName,
	dropReconnects,
	entryOf,
	finishersFirst,
	inferredStatus,
	seconds,
	utcDate,
	winnerOf,
} from './flag-rule.js';
import { int, objects, parseJsonObject, str, type Json } from './json-value.js';
import { ResultFileError, type ResultEntry, type ResultFile, type ResultReader } from './types.js';

/**
 * RaceRoom Racing Experience dedicated server results (JSON, usually one long line).
 *
 * Facts of the format (samples: mauserrifle/simresults tests/logs/raceroom-server; Sector3's "Race results" page):
 * - `Server`, `StartTime`/`Time` (Unix seconds, or `/Date(ms)/` in older files), `Track`, `TrackLayout`, then
 *   `Sessions[]`, each a `Type` (Practice, Qualify, Race, Race2, Race3) and `Players[]`;
 * - a player has Position (1..n in a race), FullName (the oldest files: only Username), UserId (RaceRoom's id),
 *   Car, optionally CarClass and PositionInClass, TotalTime (ms; 0, -1 or -1000 when there is none), FinishStatus
 *   (Finished, DidNotFinish, Disqualified, DidNotStart, None) and RaceSessionLaps[] of {Time (ms; -1000: the lap
 *   was not completed), Valid, Incidents[{Type, Points, OtherUserId}]};
 * - the lap a retired car stopped in may be recorded as if complete (simresults' Ken J: 13 laps like the winner,
 *   the last one 135 s with three "Staying stationary" incidents); incident types were renumbered in May 2020:
 *   "Disconnecting / Giving up" was 7, is 8 (Sector3's list: 0 car contact ... 8 disconnecting).
 * Rules:
 * - the race read is the last race session (Race, Race2, Race3) with players; `session` names it when the file
 *   holds several sessions, and a warning says when it holds several races;
 * - order by Position; status from FinishStatus (DidNotFinish DNF, Disqualified DSQ, DidNotStart DNS); a car that
 *   did not finish and completed no lap is DNS; finishers first, then who did not take the flag, then the
 *   disqualified (flag-rule.ts); the reason is the incident of the lap the car stopped in, when it records one;
 * - laps are the completed ones (Time > 0); for a car that did not take the flag its last recorded lap is the one it
 *   stopped in, not counted, when that lap records it stopping ("Staying stationary", "Disconnecting / Giving up")
 *   or when counting it would give the car as many laps as the winner;
 * - FinishStatus "None" (or none) states nothing: the status is inferred (statusInferred) by the one rule of
 *   flag-rule.ts, the sum of the completed laps standing for a missing TotalTime; a driver whose laps the file does
 *   not record at all (the oldest files) stays as placed, finished;
 * - `simId` is `raceroom:<UserId>`; the same UserId (or name) twice is one racer (a reconnect): the higher place kept.
 */

const STATIONARY = 4;
const DISCONNECT_BEFORE_2020 = 7;
const DISCONNECT = 8;
/** 2020-05-06 (simresults: the game update that renumbered the incident types), in Unix seconds. */
const INCIDENTS_RENUMBERED = 1_588_723_200;

export const raceroomReader: ResultReader = {
	id: 'raceroom',
	name: 'RaceRoom dedicated server results',
	detect(text) {
		const head = text.slice(0, 4000).replace(/^\uFEFF/u, '');
		return (
			/^\s*\{/u.test(head) &&
			/"Sessions"\s*:/u.test(head) &&
			/"(Experience|RaceSessionLaps|FinishStatus)"\s*:/u.test(head)
		);
	},
	read(text) {
		const root = parseJsonObject(text);
		const sessions = objects(root.Sessions);
		if (sessions.length === 0) throw new ResultFileError('the file has no sessions');
		const races = sessions.filter((s) => /^race\d*$/iu.test(str(s.Type) ?? ''));
		const race = races.filter((s) => objects(s.Players).length > 0).at(-1);
		if (race === undefined) {
			const holds = races.length > 0 ? 'races with no player' : sessions.map((s) => str(s.Type) ?? '?').join(', ');
			throw new ResultFileError(`no race session with racers: the file holds ${holds}`);
		}
		const warnings: string[] = [];
		const type = str(race.Type) ?? 'Race';
		if (races.length > 1) {
			const names = races.map((s) => str(s.Type)).join(', ');
			warnings.push(`the file holds ${races.length} races (${names}): the last one, ${type}, was read`);
		}
		const time = unixSeconds(root.Time) ?? unixSeconds(root.StartTime);
		const entries = classify(objects(race.Players), time, warnings);
		const track = [str(root.Track), str(root.TrackLayout)].map((t) => cleanName(t ?? '')).filter((t) => t !== '');
		return {
			format: 'raceroom',
			formatName: 'RaceRoom dedicated server results',
			...(sessions.length > 1 && { session: `${type} (session ${sessions.indexOf(race) + 1} of ${sessions.length})` }),
			...(track.length > 0 && { track: track.join(' - ') }),
			...(time !== undefined && { date: utcDate(time) }),
			entries,
			warnings,
		} satisfies ResultFile;
	},
};

interface Draft {
	name: string;
	status: EntryStatus;
	/** The file states no status: inferred. */
	readonly inferred: boolean;
	reason?: string;
	readonly totalTime?: number;
	/** Total time, or the sum of the completed laps, in ms: what the inference compares. */
	readonly timeMs?: number;
	laps?: number;
	readonly simId?: string;
	readonly car?: string;
	readonly carClass?: string;
	readonly classPosition?: number;
	readonly key: string;
}

function classify(players: readonly Json[], time: number | undefined, warnings: string[]): ResultEntry[] {
	const place = (p: Json) => {
		const position = int(p.Position) ?? 0;
		return position > 0 ? position : Infinity;
	};
	const ordered = players.toSorted((a, b) => place(a) - place(b));
	const drafts = ordered.map((p) => draftOf(p, warnings));
	const stated = drafts.find((d) => d.status === 'finished' && !d.inferred);
	const renumbered = time === undefined || time >= INCIDENTS_RENUMBERED;
	ordered.forEach((p, i) => dropStoppedLap(drafts[i]!, p, stated, renumbered, warnings));
	inferUnstated(drafts, warnings);
	const lapless = players.filter((p) => !Array.isArray(p.RaceSessionLaps)).length;
	if (lapless > 0) warnings.push(`the file records no laps for ${lapless} of ${players.length} drivers`);
	return dropReconnects(
		finishersFirst(drafts),
		warnings,
		(d, i) => `${d.name} is in the race twice (a reconnect): the lower row (${i + 1}) was dropped`,
	).map((d, i) => toEntry(d, i + 1));
}

const STATUSES: Readonly<Record<string, EntryStatus>> = {
	finished: 'finished',
	didnotfinish: 'DNF',
	dnf: 'DNF',
	disqualified: 'DSQ',
	dq: 'DSQ',
	didnotstart: 'DNS',
	dns: 'DNS',
};

function draftOf(p: Json, warnings: string[]): Draft {
	const fullName = cleanName(str(p.FullName) ?? '');
	const name = fullName !== '' ? fullName : cleanName(str(p.Username) ?? '');
	const position = int(p.Position) ?? 0;
	const shown = name !== '' ? name : `unnamed driver (P${position})`;
	if (name === '') warnings.push(`the driver placed ${position} has no name in the file`);
	const finishStatus = str(p.FinishStatus) ?? 'None';
	const stated = STATUSES[finishStatus.toLowerCase()];
	if (stated === undefined && finishStatus !== 'None') {
		warnings.push(`${shown}: finish status "${finishStatus}" is unknown: inferred from laps and times`);
	}
	const laps = completedLaps(p);
	const total = int(p.TotalTime);
	const userId = int(p.UserId);
	const carClass = cleanName(str(p.CarClass) ?? '');
	const classPosition = int(p.PositionInClass);
	const car = cleanName(str(p.Car) ?? '');
	const timeMs = total !== undefined && total > 0 ? total : laps?.reduce((sum, lap) => sum + (int(lap.Time) ?? 0), 0);
	return {
		name: shown,
		status: stated === 'DNF' && laps?.length === 0 ? 'DNS' : (stated ?? 'finished'),
		inferred: stated === undefined,
		...(total !== undefined && total > 0 && { totalTime: seconds(total) }),
		...(timeMs !== undefined && timeMs > 0 && { timeMs }),
		...(laps !== undefined && { laps: laps.length }),
		...(userId !== undefined && userId > 0 && { simId: `raceroom:${userId}` }),
		...(car !== '' && { car }),
		...(carClass !== '' && { carClass }),
		...(carClass !== '' && classPosition !== undefined && classPosition > 0 && { classPosition }),
		key: userId !== undefined && userId > 0 ? `id:${userId}` : shown.toLowerCase(),
	};
}

/** The completed laps (Time > 0), or undefined when the file records none for this driver. */
function completedLaps(p: Json): Json[] | undefined {
	if (!Array.isArray(p.RaceSessionLaps)) return undefined;
	return objects(p.RaceSessionLaps).filter((lap) => (int(lap.Time) ?? 0) > 0);
}

/** The lap a car that did not take the flag stopped in, recorded as if complete, is not a completed lap. */
function dropStoppedLap(d: Draft, p: Json, winner: Draft | undefined, renumbered: boolean, warnings: string[]): void {
	if ((d.status !== 'DNF' && d.status !== 'DSQ') || d.laps === undefined || d.laps === 0) return;
	const last = objects(p.RaceSessionLaps).at(-1);
	if (last === undefined || (int(last.Time) ?? 0) <= 0) return;
	const disconnect = renumbered ? DISCONNECT : DISCONNECT_BEFORE_2020;
	const incidents = objects(last.Incidents).map((i) => int(i.Type));
	const stopped = incidents.includes(STATIONARY) || incidents.includes(disconnect);
	const asManyAsWinner = winner !== undefined && d.laps >= (winner.laps ?? Infinity);
	if (!stopped && !asManyAsWinner) return;
	d.laps -= 1;
	if (stopped)
		d.reason = incidents.includes(disconnect) ? 'Disconnecting / Giving up' : 'Staying stationary on the track';
	const why = stopped ? `it records "${d.reason}"` : 'counting it would give the winner’s laps';
	warnings.push(`${d.name}: the last recorded lap is the one the car stopped in (${why}): ${d.laps} laps counted`);
	if (d.laps === 0 && d.status === 'DNF') {
		d.status = 'DNS';
		delete d.reason;
	}
}

/** flag-rule.ts's one rule for the drivers whose status the file does not state (and whose laps it records). */
function inferUnstated(drafts: Draft[], warnings: string[]): void {
	const unstated = drafts.filter((d) => d.inferred);
	if (unstated.length === 0) return;
	const cars = drafts.map((d) => ({ laps: d.laps ?? 0, timeMs: d.timeMs, disqualified: d.status === 'DSQ' }));
	const winner = winnerOf(cars);
	drafts.forEach((d, i) => {
		if (d.inferred && d.laps !== undefined) d.status = inferredStatus(cars[i]!, winner);
	});
	warnings.push(
		`${unstated.length} of ${drafts.length} drivers have no finish status (FinishStatus "None"): ` +
			'inferred from their laps and times',
	);
}

const toEntry = (d: Draft, position: number): ResultEntry => entryOf({ ...d, statusInferred: d.inferred }, position);

/** Unix seconds from a number (seconds, or ms when that large) or a WCF date string `/Date(1459003463775)/`. */
function unixSeconds(value: unknown): number | undefined {
	const n = int(value);
	if (n !== undefined && n > 0) return n > 1e11 ? Math.floor(n / 1000) : n;
	const ms = /^\/Date\((\d+)/u.exec(str(value) ?? '')?.[1];
	return ms === undefined ? undefined : Math.floor(Number(ms) / 1000);
}
