import type { EntryInput, LeagueConfig, LeagueEvent, RaceInput } from './league-events.js';
import { isCalendarDate } from './dates.js';
import { nameProblem, normalizeName, type NameRules } from './player-names.js';
import { getSystem, isSystemId } from '../ratings/index.js';
import type { PlayerInfo } from './race-log.js';
import type { EntryStatus, RaceEntry } from '../ratings/types.js';
import { rankingPostProblem } from './ranking-post.js';
import { MAX_POINTS_PLACES } from '../formats/points-table.js';
import { rankRolesProblem } from './rank-tiers.js';
import { toEnd } from './steps.js';

/** Validation of race-log events: every refusal is a LeagueError whose message can be shown to the organizer. */

export class LeagueError extends Error {
	override readonly name = 'LeagueError';
}

const statuses: readonly EntryStatus[] = ['finished', 'DNF', 'DNS', 'DSQ'];

/** Names and aliases compare case-insensitively, after NFC normalisation and trimming. */
export const nameKey = (name: string): string => name.normalize('NFC').trim().toLowerCase();

export function validName(name: unknown, what: string): string {
	if (typeof name !== 'string') throw new LeagueError(`${what} must be text`);
	const trimmed = name.normalize('NFC').trim();
	if (trimmed === '') throw new LeagueError(`${what} is empty`);
	if (trimmed.length > 64) throw new LeagueError(`${what} "${trimmed.slice(0, 20)}…" is longer than 64 characters`);
	if (trimmed.startsWith('#')) throw new LeagueError(`${what} "${trimmed}" may not start with # (ids do)`);
	return trimmed;
}

/**
 * A name as a person gives it for something new (a player's new name, an alias, a league), tidied as a scoreboard
 * tidies it (NFC, one space between words), or a LeagueError saying what is wrong: the scoreboard's rules, one
 * function for every path (player-names.ts nameProblem).
 */
export function newName(raw: unknown, what: string, rules?: NameRules): string {
	if (typeof raw !== 'string') throw new LeagueError(`the ${what} must be text`);
	const problem = nameProblem(raw, what, rules);
	if (problem !== undefined) throw new LeagueError(problem);
	return normalizeName(raw);
}

/**
 * A race entry's car as a stored event holds it: text, not empty, at most 64 characters (a team's length). Unlike a
 * player's or a team's name it may start with `#` ("#24 Porsche 963"): a car is never looked up as a player id.
 */
function validCar(name: unknown, what: string): string {
	if (typeof name !== 'string') throw new LeagueError(`${what} must be text`);
	const trimmed = name.normalize('NFC').trim();
	if (trimmed === '') throw new LeagueError(`${what} is empty`);
	if ([...trimmed].length > 64)
		throw new LeagueError(`${what} "${trimmed.slice(0, 20)}…" is longer than 64 characters`);
	return trimmed;
}

/** A team's name: up to 64 characters (as teams always were), and it may start with `#`. */
const TEAM_NAME: NameRules = { maxLength: 64, idLike: false };

/**
 * newName for a name an event stores as it comes (a race's new racer, a team, a season): the event must already hold
 * the tidied name. Every reader tidies it (scoreboards, history CSV, importers); one that did not would store
 * "A\tnn" beside "A nn", two players who look the same, so the log refuses it instead.
 */
function storedName(raw: unknown, what: string, rules?: NameRules): void {
	const name = newName(raw, what, rules);
	if (typeof raw === 'string' && name !== raw.normalize('NFC').trim()) {
		throw new LeagueError(`the ${what} "${name}" has a tab or several spaces between its words: use one space`);
	}
}

/**
 * The names an event would bring into the league, checked with newName: a league's name when it is set or changed,
 * a rename, an alias, a new player of a race. Only new events are checked (LeagueLog.check): a stored event replays
 * under the rules it was written under (validName), so a league keeps opening after the rules grew stricter.
 */
export function checkNewNames(
	event: LeagueEvent,
	config: LeagueConfig | undefined,
	resolve: (ref: string) => unknown,
): void {
	toEnd(checkNewNamesInSteps(event, config, resolve));
}

/** Races whose names are checked between two pauses of checkNewNamesInSteps (an import's 200,000 entries: 14 ms). */
const NAME_CHECK_RACES_PER_STEP = 50;

/** checkNewNames in steps: an import's races pause every NAME_CHECK_RACES_PER_STEP (steps.ts). */
export function* checkNewNamesInSteps(
	event: LeagueEvent,
	config: LeagueConfig | undefined,
	resolve: (ref: string) => unknown,
): Generator<void, void> {
	switch (event.type) {
		case 'league-configured':
			if (config === undefined || event.config.name !== config.name) newName(event.config.name, 'league name');
			return;
		case 'player-renamed':
			newName(event.name, 'player name');
			return;
		case 'alias-added':
			newName(event.alias, 'alias');
			return;
		case 'race-submitted':
		case 'race-edited':
		case 'league-imported': {
			const races =
				event.type === 'league-imported' ? event.races : [event.type === 'race-submitted' ? event.race : event.changes];
			// The event's shape was checked first (planRaceContent): lists of entries with a player's name or id each.
			const checked = new Set<string>();
			// Teams and cars apart from players: a player's second race may bring another team or car.
			const checkedLabels = new Set<string>();
			const label = (name: string | undefined, what: string) => {
				if (name === undefined || checkedLabels.has(name)) return;
				checkedLabels.add(name);
				storedName(name, what, TEAM_NAME);
			};
			for (const [k, race] of races.entries()) {
				if (k > 0 && k % NAME_CHECK_RACES_PER_STEP === 0) yield;
				for (const entry of race.entries) {
					if (!checked.has(entry.player)) {
						checked.add(entry.player);
						if (resolve(entry.player) === undefined) storedName(entry.player, 'player name');
					}
					label(entry.team, 'team name');
					label(entry.car, 'car name');
				}
			}
			return;
		}
		case 'team-set':
			if (event.team !== null) storedName(event.team, 'team name', TEAM_NAME);
			return;
		case 'season-started':
			storedName(event.name, 'season name', { maxLength: 64 });
			return;
		default:
			return;
	}
}

/** A league configuration: a name, a known headline system, parameters every system accepts, a time zone. */
export function checkConfig(config: LeagueConfig): void {
	validName(config.name, 'league name');
	if (typeof config.guildId !== 'string' || config.guildId === '') throw new LeagueError('a league needs a guild id');
	if (!isSystemId(config.headline)) throw new LeagueError(`unknown headline system "${config.headline}"`);
	if (typeof config.timezone !== 'string' || config.timezone === '')
		throw new LeagueError('a league needs a time zone');
	if (config.reset !== undefined && config.reset !== 'yearly') throw new LeagueError('reset must be yearly or absent');
	if (config.retirements !== undefined && config.retirements !== 'tied' && config.retirements !== 'excluded')
		throw new LeagueError('retirements must be tied, excluded or absent (ordered)');
	if (config.seasonReset !== undefined) checkSeasonReset(config.seasonReset);
	if (config.rankingPost !== undefined) {
		const problem = rankingPostProblem(config.rankingPost);
		if (problem !== undefined) throw new LeagueError(problem);
	}
	if (config.points !== undefined) {
		const points: unknown = config.points;
		if (!Array.isArray(points) || points.length === 0 || points.length > MAX_POINTS_PLACES) {
			throw new LeagueError(`points must list 1 to ${MAX_POINTS_PLACES} places`);
		}
		if (points.some((p) => typeof p !== 'number' || !(Number.isFinite(p) && p >= 0)) || !points.some((p) => p > 0)) {
			throw new LeagueError('points must be non-negative numbers, at least one above 0');
		}
	}
	if (config.bestResults !== undefined && !(Number.isInteger(config.bestResults) && config.bestResults >= 1)) {
		throw new LeagueError('best results must be a whole number of at least 1');
	}
	if (config.minRaces !== undefined && !(Number.isInteger(config.minRaces) && config.minRaces >= 1)) {
		throw new LeagueError('the leaderboard minimum races must be a whole number of at least 1');
	}
	if (config.idleDays !== undefined && !(Number.isInteger(config.idleDays) && config.idleDays >= 1)) {
		throw new LeagueError('the leaderboard idle days must be a whole number of at least 1');
	}
	if (config.chartTheme !== undefined && config.chartTheme !== 'dark' && config.chartTheme !== 'light') {
		throw new LeagueError('the chart theme must be dark or light');
	}
	if (config.roles !== undefined) {
		const problem = rankRolesProblem(config.roles);
		if (problem !== undefined) throw new LeagueError(problem);
	}
	for (const [system, overrides] of Object.entries(config.params ?? {})) {
		try {
			getSystem(system).params(overrides);
		} catch (error) {
			// The system's own messages already start with its id ("glicko: parameter c …"): not said twice.
			const text = (error as Error).message;
			const message = text.startsWith(`${system}: `) ? text.slice(system.length + 2) : text;
			throw new LeagueError(`parameters of ${system}: ${message}`);
		}
	}
}

/** A season's carry-over: a known mode, and for `soft` a share from 0 to 1 (which only `soft` has). */
function checkSeasonReset(reset: LeagueConfig['seasonReset'] & object): void {
	const { mode, share } = reset;
	if (mode !== 'carry' && mode !== 'restart' && mode !== 'soft')
		throw new LeagueError('the season reset must be carry, restart or soft');
	if (mode === 'soft' && !(typeof share === 'number' && share >= 0 && share <= 1))
		throw new LeagueError('a soft season reset needs a share from 0 % to 100 %');
	if (mode !== 'soft' && share !== undefined) throw new LeagueError(`a ${mode} season reset has no share`);
}

const RACE_NAME_MAX = 100;
const RACE_NAME = new RegExp(`^[^\\p{Cc}]{1,${RACE_NAME_MAX}}$`, 'u');

/**
 * A league that resets ratings every calendar year places each race in its year, so every race needs a date: the
 * replay (replay.ts) refuses an undated race under a yearly reset, and the log must never hold an event it refuses.
 */
export function checkDatedForReset(config: LeagueConfig | undefined, date: string | undefined, raceId: string): void {
	if (config?.reset === 'yearly' && date === undefined) {
		throw new LeagueError(`race ${raceId} needs a date: this league resets ratings every calendar year`);
	}
}

/**
 * Resolve and check a race's entries: every player known (by id, name or alias) or new (a valid name, created with
 * the next id), no player twice, integer positions ≥ 1, a known status, a finite non-negative time.
 */
export function planRaceContent(
	input: RaceInput,
	raceId: string,
	resolve: (ref: string) => PlayerInfo | undefined,
	playerCount: number,
): { entries: RaceEntry[]; created: PlayerInfo[] } {
	if (input.date !== undefined && !isCalendarDate(input.date)) {
		throw new LeagueError(`race ${raceId}: date "${input.date}" is not a calendar day written YYYY-MM-DD`);
	}
	if (input.name !== undefined && (typeof input.name !== 'string' || !RACE_NAME.test(input.name))) {
		throw new LeagueError(
			`race ${raceId}: a race name is 1 to ${RACE_NAME_MAX} characters, without line breaks or control characters`,
		);
	}
	if (input.mode !== undefined && input.mode !== 'tt' && input.mode !== 'items') {
		throw new LeagueError(`race ${raceId}: mode must be tt or items`);
	}
	const list: readonly EntryInput[] = input.entries;
	if (!Array.isArray(input.entries) || list.length === 0) throw new LeagueError(`race ${raceId} has no entries`);
	const created: PlayerInfo[] = [];
	const createdByName = new Map<string, PlayerInfo>();
	const seen = new Set<string>();
	const entries = list.map((entry): RaceEntry => {
		if (typeof entry.player !== 'string') throw new LeagueError(`race ${raceId}: every entry needs a player name`);
		const where = `race ${raceId}, ${entry.player}`;
		if (!Number.isInteger(entry.position) || entry.position < 1)
			throw new LeagueError(`${where}: position must be 1 or more`);
		if (!statuses.includes(entry.status))
			throw new LeagueError(`${where}: status must be one of ${statuses.join(', ')}`);
		if (entry.time !== undefined && !(Number.isFinite(entry.time) && entry.time >= 0)) {
			throw new LeagueError(`${where}: time must be a non-negative number of seconds`);
		}
		let id = resolve(entry.player)?.id ?? createdByName.get(nameKey(entry.player))?.id;
		if (id === undefined) {
			if (entry.player.trim().startsWith('#')) throw new LeagueError(`${where}: unknown player id`);
			const player: PlayerInfo = {
				id: `#${playerCount + created.length + 1}`,
				name: validName(entry.player, 'player name'),
				aliases: [],
			};
			created.push(player);
			createdByName.set(nameKey(player.name), player);
			id = player.id;
		}
		if (seen.has(id)) throw new LeagueError(`${where}: this player appears twice`);
		seen.add(id);
		const team = entry.team === undefined ? undefined : validName(entry.team, `${where}: team`);
		const car = entry.car === undefined ? undefined : validCar(entry.car, `${where}: car`);
		return {
			player: id,
			position: entry.position,
			status: entry.status,
			...(entry.time !== undefined && { time: entry.time }),
			...(team !== undefined && { team }),
			...(car !== undefined && { car }),
		};
	});
	return { entries, created };
}
