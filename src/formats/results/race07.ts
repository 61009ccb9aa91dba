import type { EntryStatus } from '../../ratings/types.js';
import { cleanName, dropReconnects, entryOf, finishersFirst, sameNameWarnings, seconds } from './flag-rule.js';
import { ResultFileError, type ResultEntry, type ResultFile, type ResultReader } from './types.js';

/**
 * RACE 07 / GTR 2 text results (also GTR, GT Legends and the other SimBin games of that engine).
 *
 * Facts of the format (samples: mauserrifle/simresults tests/logs/race07 and gtr2):
 * - INI-like blocks after gMotor's `//` comment line: `[Header]` (Game, Version, TimeString `YYYY/MM/DD hh:mm:ss`),
 *   `[Race]` (Scene: the track's `.TRK` path), then one `[SlotNNN]` per car of `key=value` lines: Driver, SteamUser,
 *   SteamId (RACE 07: the 32-bit Steam account number), Vehicle, Team, QualTime, Laps, `Lap=(n, elapsed, time)`
 *   lines, BestLap, RaceTime (`h:mm:ss.fff`, `DNF`, `0:00:00.000` when there is none) and Reason (a number the file
 *   does not explain: not read) for a DNF; `[END]` closes a block;
 * - the slots are in no particular order and there is no position; a qualifying or practice file looks the same,
 *   except that nobody has a race time; GTR 2 writes `Lobby Username` instead of the Steam fields;
 * - RaceRoom's own offline results use the same blocks but write several sessions over each other and garbage race
 *   times (-2147483648:...): refused, its dedicated server's JSON is read instead (raceroom.ts).
 * Rules:
 * - finishers are the cars with a race time, ordered by laps (most first) then race time; then by laps the cars
 *   that did not take the flag (DNF; DNS with no lap), then the disqualified (RaceTime DQ, flag-rule.ts); a tie
 *   keeps the file's order;
 * - a file where nobody has a race time is a qualifying or practice session: ResultFileError;
 * - `simId` is `steam:<64-bit id>` (76561197960265728 + the account number); `team` drops the game's TEMPLATE_TEAM;
 * - the same Steam id (or name) in two slots is one racer (a reconnect): the better placed slot is kept;
 * - a race time that is not a time (a negative one: the driver left before the finish) is read as DNF, said.
 */

interface Section {
	readonly name: string;
	readonly line: number;
	readonly values: ReadonlyMap<string, string>;
	/** The line of each key. */
	readonly lines: ReadonlyMap<string, number>;
}

const STEAM_ID64_BASE = 76561197960265728n;
/** Blank lines and `//` comment lines at the start of the file. */
const COMMENT_LINES = /^(?:[ \t]*(?:\/\/[^\r\n]*)?(?:\r\n|\r|\n))*/u;

export const race07Reader: ResultReader = {
	id: 'race07',
	name: 'RACE 07 / GTR 2 text results',
	detect(text) {
		// gMotor writes a `//[[gMa1.000f (c)2004 ]]` line before the header.
		const head = text
			.replace(/^\uFEFF/u, '')
			.slice(0, 1500)
			.replace(COMMENT_LINES, '');
		return /^\[Header\][ \t]*\r?\n/iu.test(head) && /^Game=/imu.test(head);
	},
	read(text) {
		const blocks = parseBlocks(text);
		const all = blocks.flat();
		const header = all.find((s) => s.name === 'header')?.values;
		const game = header?.get('game')?.trim() ?? '';
		if (/raceroom/iu.test(game)) {
			throw new ResultFileError(
				"RaceRoom's own text results (offline races) are not read: its sessions are written over each " +
					"other; use the dedicated server's JSON results file",
			);
		}
		const withSlots = blocks.filter((b) => b.some(isSlot));
		const slots = (withSlots.at(-1) ?? []).filter(isSlot);
		if (slots.length === 0) throw new ResultFileError('the file has no [SlotNNN] block: no driver');
		const warnings: string[] = [];
		if (withSlots.length > 1) {
			warnings.push(`the file holds ${withSlots.length} sessions (blocks ended by [END]): the last one was read`);
		}
		const drafts = slots.flatMap((slot) => draftOf(slot, warnings));
		if (drafts.length === 0) throw new ResultFileError('every slot of the file is empty: no driver');
		if (!drafts.some((d) => d.status === 'finished')) {
			throw new ResultFileError(
				`no race in the file: none of its ${drafts.length} drivers has a race time (RaceTime is DNF or ` +
					'0:00:00.000), so it is a qualifying or practice session',
			);
		}
		const race = all.find((s) => s.name === 'race')?.values;
		const track = trackName(race?.get('scene'));
		const date = dateOf(header?.get('timestring'));
		const entries = dropReconnects(
			classification(drafts),
			warnings,
			(d, i) => `${d.name} has two slots (a reconnect): the one placed ${i + 1} was dropped`,
		).map((d, i) => toEntry(d, i + 1));
		return {
			format: 'race07',
			formatName: `${game === '' ? 'RACE 07' : game} text results`,
			...(track !== undefined && { track }),
			...(date !== undefined && { date }),
			entries,
			warnings: [...warnings, ...sameNameWarnings(entries)],
		} satisfies ResultFile;
	},
};

/** Sections of `key=value` lines (keys lower-cased, first value kept, `Lap=` lines skipped), split at `[END]`. */
function parseBlocks(text: string): Section[][] {
	const blocks: Section[][] = [[]];
	let current: { name: string; line: number; values: Map<string, string>; lines: Map<string, number> } | undefined;
	text
		.replace(/^\uFEFF/u, '')
		.split(/\r\n|\r|\n/u)
		.forEach((raw, i) => {
			const line = raw.trim();
			if (line.startsWith('//')) return;
			const section = /^\[([^\]]+)\]$/u.exec(line)?.[1];
			if (section !== undefined) {
				if (section.toUpperCase() === 'END') {
					blocks.push([]);
					current = undefined;
					return;
				}
				current = { name: section.toLowerCase(), line: i + 1, values: new Map(), lines: new Map() };
				blocks.at(-1)!.push(current);
				return;
			}
			const eq = line.indexOf('=');
			if (current === undefined || eq <= 0) return;
			const key = line.slice(0, eq).trim().toLowerCase();
			if (key === 'lap' || current.values.has(key)) return;
			current.values.set(key, line.slice(eq + 1).trim());
			current.lines.set(key, i + 1);
		});
	return blocks.filter((b) => b.length > 0);
}

function isSlot(section: Section): boolean {
	return /^slot\d+$/u.test(section.name);
}

interface Draft {
	name: string;
	status: EntryStatus;
	ms?: number;
	laps: number;
	simId?: string;
	team?: string;
	car?: string;
	key: string;
}

function draftOf(slot: Section, warnings: string[]): Draft[] {
	const v = slot.values;
	const name = [v.get('driver'), v.get('steamuser'), v.get('lobby username')].map(clean).find((n) => n !== '') ?? '';
	const laps = Number.parseInt(v.get('laps') ?? v.get('racelaps') ?? '', 10);
	const steamId = steamId64(v.get('steamid'));
	if (name === '' && !(laps > 0) && steamId === undefined) return [];
	const shown = name !== '' ? name : `unnamed driver (line ${slot.line})`;
	if (name === '') warnings.push(`line ${slot.line}: [${slot.name}] has no driver name`);
	const raceTime = v.get('racetime') ?? '';
	const ms = raceMs(raceTime);
	let status: EntryStatus = 'finished';
	if (ms === undefined) {
		status = /^(DQ|DSQ|Disqualified)$/iu.test(raceTime) ? 'DSQ' : 'DNF';
		if (status === 'DNF' && raceTime.toUpperCase() !== 'DNF' && laps > 0) {
			const said = raceTime === '' ? 'no RaceTime' : `RaceTime "${raceTime}" is no race time`;
			warnings.push(`line ${slot.lines.get('racetime') ?? slot.line}: ${shown}: ${said}: read as DNF`);
		}
		if (status === 'DNF' && !(laps > 0)) status = 'DNS';
	}
	const team = clean(v.get('team'));
	const car = clean(v.get('vehicle'));
	return [
		{
			name: shown,
			status,
			...(ms !== undefined && { ms }),
			laps: laps > 0 ? laps : 0,
			...(steamId !== undefined && { simId: `steam:${steamId}` }),
			...(team !== '' && team !== 'TEMPLATE_TEAM' && { team }),
			...(car !== '' && { car }),
			key: steamId ?? shown.toLowerCase(),
		},
	];
}

/** Milliseconds of a positive `h:mm:ss.fff` or `m:ss.fff` race time, else undefined. */
function raceMs(text: string): number | undefined {
	const match = /^(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:\.(\d{1,3}))?$/u.exec(text);
	if (match === null) return undefined;
	const [, h, m, s, frac] = match;
	const ms = (Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s)) * 1000 + Number((frac ?? '').padEnd(3, '0') || '0');
	return ms > 0 ? ms : undefined;
}

/** RACE 07 writes the 32-bit Steam account number; a 64-bit id (if a file has one) is kept as it is. */
function steamId64(text: string | undefined): string | undefined {
	if (text === undefined || !/^\d{1,20}$/u.test(text) || /^0+$/u.test(text)) return undefined;
	const id = BigInt(text);
	return (id >= STEAM_ID64_BASE ? id : id + STEAM_ID64_BASE).toString();
}

/** Finishers by laps then race time, the others by laps, the disqualified last; ties keep the file's order. */
function classification(drafts: readonly Draft[]): Draft[] {
	const finishers = drafts
		.filter((d) => d.status === 'finished')
		.sort((a, b) => b.laps - a.laps || (a.ms ?? 0) - (b.ms ?? 0));
	const others = drafts.filter((d) => d.status !== 'finished').sort((a, b) => b.laps - a.laps);
	return finishersFirst([...finishers, ...others]);
}

const toEntry = (d: Draft, position: number): ResultEntry =>
	entryOf({ ...d, ...(d.ms !== undefined && { totalTime: seconds(d.ms) }) }, position);

/** `GameData\Locations\Road_America\Road_America.TRK` → "Road America" (the track's folder). */
function trackName(scene: string | undefined): string | undefined {
	if (scene === undefined || scene === '') return undefined;
	const parts = scene.split(/[\\/]/u).filter((p) => p !== '');
	const folder = parts.length >= 2 ? parts.at(-2)! : parts[0]!;
	return folder.replace(/_/gu, ' ');
}

function dateOf(timeString: string | undefined): string | undefined {
	const match = /^(\d{4})\/(\d{1,2})\/(\d{1,2})/u.exec(timeString ?? '');
	if (match === null) return undefined;
	const [, y, m, d] = match;
	if (Number(m) < 1 || Number(m) > 12 || Number(d) < 1 || Number(d) > 31) return undefined;
	return `${y}-${m!.padStart(2, '0')}-${d!.padStart(2, '0')}`;
}

const clean = (text: string | undefined): string => cleanName(text ?? '');
