import type { EntryStatus } from '../../ratings/types.js';
import { cleanName, dropReconnects, entryOf, finishersFirst, sameNameWarnings, seconds, utcDate } from './flag-rule.js';
import { int, obj, objects, parseJsonObject, str, type Json } from './json-value.js';
import { ResultFileError, type ResultEntry, type ResultFile, type ResultReader } from './types.js';

/**
 * Automobilista 2 dedicated server results: the `sms_stats` addon's `sms_stats_data.json`, which the Project CARS 2
 * (and Project CARS) dedicated servers write in the same shape.
 *
 * Facts of the format (samples: mauserrifle/simresults tests/logs/automobilista2 and projectcars2-server,
 * devology-uk/ams2-dedicated-server-toolbox; the server's own attribute list in simresults'
 * ProjectCarsAttributes.json):
 * - `//` comment lines before the JSON ("Persistent data for addon 'sms_stats', addon version 2.0") and after it
 *   ("// EOF //"); a value may hold `//` too ("LEAGUE // GT3"), so only whole comment lines are dropped;
 * - `stats.history[]` holds every event the server ran, each with `stages` (practice1, qualifying1, race1, ...);
 *   a stage's `results[]` (an empty one is written `{}`) gives RacePosition, participantid, refid, name and
 *   attributes State (Finished, DNF, Retired, Disqualified; the server's other states are Racing, InGarage,
 *   EnteringPits, InPits, ExitingPits), Lap (laps completed), TotalTime (ms), VehicleId (a number, no car name);
 * - `members` (keyed by refid) hold the players' `steamid`, also of members who never got a car (participantid -1);
 *   `participants` (keyed by participant id) hold Name, RefId and, in newer AMS2 builds, SteamID; a result's `name`
 *   may be empty; `stats.players` (keyed by Steam id) names every player the server has seen;
 * - the stage's `events[]` (State, Lap, Impact, CutTrack...) may show a car the `results` leave out (a finisher
 *   missing from the final results: simresults' race3.with.missing.driver.in.final.results).
 *
 * Rules:
 * - the race read is the last race stage with results of the last history entry that has one; `session` says
 *   which, and a warning says when the file holds several races or a later race without results;
 * - racers are the race's results (members who never had a car or a lap are none, nor a row with no name, id or
 *   lap), in RacePosition order, then a car the events show completing laps but the results leave out: a finisher
 *   placed by laps then the sum of its lap times, one who did not take the flag after everyone; both said;
 * - status from State: Finished; DNF and Retired as DNF; Disqualified (or a last State event Disqualified) as DSQ;
 *   any other state (the car was still out when the results were written) as DNF, said; a car that did not finish
 *   and completed no lap is DNS. Finishers first, then who did not take the flag, then the disqualified
 *   (flag-rule.ts), each in the file's order;
 * - the name is the result's, else the member's (by refid), else the participant's; the Steam id is the member's,
 *   else the participant's SteamID, else the one `stats.players` gives that name (when only one does);
 * - the same Steam id (or name) twice is one racer (a reconnect): the higher place is kept.
 * The file names no game: "Automobilista 2" when a setup has AMS2's AllowedCutsBeforePenalty, "Project CARS 2"
 * when one has PC2's per-session calendar (PracticeDateDay), "Project CARS" for addon version 1.x files.
 */

const ANY_GAME = 'Automobilista 2 / Project CARS 2 dedicated server results';

export const ams2Reader: ResultReader = {
	id: 'ams2',
	name: ANY_GAME,
	detect(text) {
		const head = text.slice(0, 2000).replace(/^\uFEFF/u, '');
		if (/^\s*\/\/ Persistent data for addon 'sms_stats'/u.test(head)) return true;
		return /^\s*\{\s*"(next_history_index|stats)"\s*:/u.test(head) && /"history"\s*:/u.test(head);
	},
	read(text) {
		const { root, addonVersion } = parseStats(text);
		const stats = obj(root.stats);
		if (stats === undefined || !Array.isArray(stats.history)) {
			throw new ResultFileError('the file has no `stats.history` list: not an sms_stats results file');
		}
		const history = objects(stats.history);
		const races = findRaces(history);
		const race = races.at(-1);
		if (race === undefined) {
			throw new ResultFileError(`no race with results in the file: it holds ${describeStages(history)}`);
		}
		const warnings: string[] = [];
		if (races.length > 1) {
			warnings.push(
				`the file holds ${races.length} races (every event the server ran): the last one was read (${race.label})`,
			);
		}
		const later = laterRaceWithoutResults(history, race);
		if (later !== undefined) {
			warnings.push(`a later race (${later}) has no results (it did not finish): the race before it was read`);
		}
		const entries = classify(race, obj(stats.players) ?? {}, warnings);
		const start = int(race.stage.start_time) ?? int(race.event.start_time);
		return {
			format: 'ams2',
			formatName: gameName(addonVersion, history),
			session: races.length > 1 ? `${race.label} (the last of ${races.length} races in the file)` : race.label,
			...(start !== undefined && start > 0 && { date: utcDate(start) }),
			entries,
			warnings,
		} satisfies ResultFile;
	},
};

/** Drops whole `//` lines (the addon's header and `// EOF //`), then parses the JSON. */
function parseStats(text: string): { root: Json; addonVersion: string | undefined } {
	const lines = text.replace(/^\uFEFF/u, '').split('\n');
	const addonVersion = /addon version (\d+(?:\.\d+)*)/u.exec(lines.slice(0, 3).join('\n'))?.[1];
	const json = lines.filter((line) => !line.trimStart().startsWith('//')).join('\n');
	return { root: parseJsonObject(json), addonVersion };
}

interface Race {
	readonly event: Json;
	/** Index in `stats.history`. */
	readonly at: number;
	readonly stageKey: string;
	readonly stage: Json;
	readonly results: readonly Json[];
	/** "race1 of history entry 21" (the entry's own `index`). */
	readonly label: string;
}

function raceStages(event: Json): [string, Json][] {
	return Object.entries(obj(event.stages) ?? {}).flatMap(([key, stage]) => {
		const o = obj(stage);
		return /^race\d*$/iu.test(key) && o !== undefined ? [[key, o] as [string, Json]] : [];
	});
}

const entryLabel = (event: Json, at: number) => `history entry ${int(event.index) ?? at + 1}`;

function findRaces(history: readonly Json[]): Race[] {
	return history.flatMap((event, at) =>
		raceStages(event).flatMap(([stageKey, stage]) => {
			const results = objects(stage.results);
			if (results.length === 0) return [];
			return [{ event, at, stageKey, stage, results, label: `${stageKey} of ${entryLabel(event, at)}` }];
		}),
	);
}

/** A race stage after the one read (in the same history entry or a later one) that has no results. */
function laterRaceWithoutResults(history: readonly Json[], race: Race): string | undefined {
	for (let at = race.at; at < history.length; at++) {
		const event = history[at]!;
		const stages = raceStages(event);
		const after = at === race.at ? stages.slice(stages.findIndex(([key]) => key === race.stageKey) + 1) : stages;
		const empty = after.find(([, stage]) => objects(stage.results).length === 0);
		if (empty !== undefined) return `${empty[0]} of ${entryLabel(event, at)}`;
	}
	return undefined;
}

/** "practice1 ×9, qualifying1, race1 without results", for the no-race message. */
function describeStages(history: readonly Json[]): string {
	const counts = new Map<string, number>();
	for (const event of history) {
		for (const [key, stage] of Object.entries(obj(event.stages) ?? {})) {
			const empty = objects(obj(stage)?.results).length === 0;
			const name = /^race/iu.test(key) && empty ? `${key} without results` : key;
			counts.set(name, (counts.get(name) ?? 0) + 1);
		}
	}
	if (counts.size === 0) return 'no session';
	return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
}

function gameName(addonVersion: string | undefined, history: readonly Json[]): string {
	if (addonVersion?.startsWith('1.') === true) return 'Project CARS dedicated server results';
	const setups = history.map((event) => obj(event.setup) ?? {});
	if (setups.some((s) => 'AllowedCutsBeforePenalty' in s)) return 'Automobilista 2 dedicated server results';
	if (setups.some((s) => 'PracticeDateDay' in s)) return 'Project CARS 2 dedicated server results';
	return ANY_GAME;
}

interface Draft {
	readonly name: string;
	readonly status: EntryStatus;
	readonly reason?: string;
	readonly totalTime?: number;
	readonly laps?: number;
	readonly simId?: string;
	/** The racer across reconnects: the Steam id, else the name. */
	readonly key: string;
}

const KNOWN_STATES = new Set(['Finished', 'DNF', 'Retired', 'Disqualified']);

function classify(race: Race, players: Json, warnings: string[]): ResultEntry[] {
	const who = identities(race.event, players);
	const track = eventTrack(objects(race.stage.events));
	const rows = [...race.results].sort((a, b) => positionOf(a) - positionOf(b));
	const drafts = rows.flatMap((row): Draft[] => {
		const attributes = obj(row.attributes) ?? {};
		const pid = int(row.participantid);
		const { name, named, steamId } = who(pid, int(row.refid), str(row.name));
		const laps = int(attributes.Lap);
		if (!named && steamId === undefined && !(laps !== undefined && laps > 0)) return []; // an empty row
		if (!named) warnings.push(`participant ${pid ?? '?'} has no name in the results, members or participants`);
		const state = str(attributes.State) ?? '';
		let status = stateStatus(state);
		if (!KNOWN_STATES.has(state)) {
			warnings.push(`${name}: state "${state}" (still out when the results were written): read as DNF`);
		}
		if (status === 'DNF' && pid !== undefined && track.states.get(pid) === 'Disqualified') {
			warnings.push(`${name}: the race events show a disqualification (the results say ${state}): read as DSQ`);
			status = 'DSQ';
		}
		if (status === 'DNF' && laps === 0) status = 'DNS';
		const total = int(attributes.TotalTime);
		const reason = status === 'DNF' && state !== 'DNF' ? state || 'no state' : undefined;
		return [
			{
				name,
				status,
				...(reason !== undefined && { reason }),
				...(total !== undefined && total > 0 && { totalTime: seconds(total) }),
				...(laps !== undefined && { laps }),
				...(steamId !== undefined && { simId: `steam:${steamId}` }),
				key: steamId ?? name.toLowerCase(),
			},
		];
	});
	noteReordering(drafts, warnings);
	const ordered = finishersFirst(drafts);
	addMissing(ordered, race, track, who, warnings);
	const entries = dropReconnects(
		finishersFirst(ordered),
		warnings,
		(d, i) => `${d.name} is in the results twice (a reconnect): the lower row (${i + 1}) was dropped`,
	).map((d, i) => toEntry(d, i + 1));
	if (entries.length === 0) throw new ResultFileError(`the race (${race.label}) has no racer`);
	warnings.push(...sameNameWarnings(entries));
	return entries;
}

function stateStatus(state: string): EntryStatus {
	if (state === 'Finished') return 'finished';
	if (state === 'Disqualified') return 'DSQ';
	return 'DNF';
}

function positionOf(row: Json): number {
	const p = int(obj(row.attributes)?.RacePosition);
	return p !== undefined && p > 0 ? p : Number.MAX_SAFE_INTEGER;
}

/** A car that did not take the flag placed above a finisher by the server goes after the finishers: said. */
function noteReordering(drafts: readonly Draft[], warnings: string[]): void {
	const lastFinisher = drafts.findLastIndex((d) => d.status === 'finished');
	drafts.forEach((d, i) => {
		if (d.status !== 'finished' && i < lastFinisher) {
			warnings.push(`${d.name} (${d.status}) was placed P${i + 1} by the server, above finishers: placed after them`);
		}
	});
}

interface Track {
	/** Last State event per participant id. */
	readonly states: Map<number, string>;
	/** Lap events per participant id: count, sum of lap times (ms) and an event that names the car. */
	readonly laps: Map<number, { count: number; sum: number; event: Json }>;
}

function eventTrack(events: readonly Json[]): Track {
	const states = new Map<number, string>();
	const laps = new Map<number, { count: number; sum: number; event: Json }>();
	for (const event of events) {
		const pid = int(event.participantid);
		if (pid === undefined) continue;
		const attributes = obj(event.attributes) ?? {};
		if (event.event_name === 'State') {
			const state = str(attributes.NewState);
			if (state !== undefined) states.set(pid, state);
		} else if (event.event_name === 'Lap') {
			const lap = laps.get(pid) ?? { count: 0, sum: 0, event };
			laps.set(pid, { count: lap.count + 1, sum: lap.sum + (int(attributes.LapTime) ?? 0), event });
		}
	}
	return { states, laps };
}

/**
 * A car the race events show completing laps that the results leave out: a finisher (last State Finished) is
 * placed among the finishers by laps, then by the sum of its lap times; any other after everyone.
 */
function addMissing(drafts: Draft[], race: Race, track: Track, who: Identify, warnings: string[]): void {
	const listed = new Set(race.results.map((r) => int(r.participantid)));
	for (const [pid, lap] of track.laps) {
		if (listed.has(pid)) continue;
		const { name, steamId } = who(pid, int(lap.event.refid), str(lap.event.name));
		const key = steamId ?? name.toLowerCase();
		if (drafts.some((d) => d.key === key)) continue;
		const state = track.states.get(pid);
		const base = { name, laps: lap.count, key, ...(steamId !== undefined && { simId: `steam:${steamId}` }) };
		if (state === 'Finished') {
			const total = seconds(lap.sum);
			const at = drafts.findIndex(
				(d) =>
					d.status !== 'finished' ||
					(d.laps ?? 0) < lap.count ||
					((d.laps ?? 0) === lap.count && (d.totalTime ?? Infinity) > total),
			);
			drafts.splice(at === -1 ? drafts.length : at, 0, { ...base, status: 'finished', totalTime: total });
			warnings.push(
				`${name} is missing from the server's results, but the race events show them finishing with ` +
					`${lap.count} laps: placed by laps and the sum of their lap times (${total} s)`,
			);
		} else {
			const status: EntryStatus = state === 'Disqualified' ? 'DSQ' : 'DNF';
			drafts.push({ ...base, status, ...(state !== undefined && status === 'DNF' && { reason: state }) });
			warnings.push(
				`${name} is missing from the server's results; the race events show ${lap.count} laps and no finish: ` +
					`placed after the finishers as ${status}`,
			);
		}
	}
}

const toEntry = (d: Draft, position: number): ResultEntry => entryOf(d, position);

type Identify = (
	pid: number | undefined,
	refid: number | undefined,
	name: string | undefined,
) => { name: string; named: boolean; steamId?: string };

/** Name and Steam id of a car, from the result row, the member (by refid), the participant and `stats.players`. */
function identities(event: Json, players: Json): Identify {
	const members = obj(event.members) ?? {};
	const participants = obj(event.participants) ?? {};
	const byName = new Map<string, string[]>();
	for (const [steamId, player] of Object.entries(players)) {
		const name = cleanName(str(obj(player)?.name) ?? '');
		if (name !== '' && isSteamId(steamId)) byName.set(name, [...(byName.get(name) ?? []), steamId]);
	}
	return (pid, refid, rowName) => {
		const member = refid === undefined ? undefined : obj(members[String(refid)]);
		const participant = pid === undefined ? undefined : obj(participants[String(pid)]);
		const found = [rowName, str(member?.name), str(participant?.Name)]
			.map((n) => cleanName(n ?? ''))
			.find((n) => n !== '');
		const name = found ?? `unnamed car ${pid ?? '?'}`;
		const fromPlayers = byName.get(name);
		const steamId = [
			str(member?.steamid),
			str(participant?.SteamID),
			fromPlayers?.length === 1 ? fromPlayers[0] : undefined,
		].find(isSteamId);
		return { name, named: found !== undefined, ...(steamId !== undefined && { steamId }) };
	};
}

function isSteamId(id: string | undefined): id is string {
	return id !== undefined && /^[1-9]\d{5,19}$/u.test(id);
}
