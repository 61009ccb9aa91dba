import { ImportError, type ImportResult } from './import-table.js';
import { normalizeName } from '../league/player-names.js';
import { isCalendarDate } from '../league/dates.js';
import { formatScoreboard } from './scoreboard.js';
import type { Race, RaceEntry } from '../ratings/types.js';

/** One Race for Kicks race folder (elo-zs `src/R4K/data/<folder>/`): its files' contents, no file system here. */
export interface R4kRaceFiles {
	/** The folder name, `YYYY-MM` (season and race number): the race id, and the history order. */
	readonly folder: string;
	/** `thisrace.sb`: one INI section per submitted replay. */
	readonly scoreboard: string;
	/** `thisrace.cfg`: race metadata; absent upstream for 2020-05 and 2020-06 (test/fixtures/r4k/PROVENANCE.md). */
	readonly config?: string | undefined;
}

type Section = { readonly line: number; readonly values: ReadonlyMap<string, string> };

/** Read an INI text: `[name]` starts a section, `key=value` lines fill it; blank and `//` lines are skipped. */
function readIni(text: string, file: string): { top: ReadonlyMap<string, string>; sections: Section[] } {
	const top = new Map<string, string>();
	const sections: { line: number; values: Map<string, string> }[] = [];
	text.split(/\r?\n/).forEach((raw, i) => {
		const line = raw.trim();
		if (line === '' || line.startsWith('//') || line.startsWith(';')) return;
		if (/^\[.*\]$/.test(line)) {
			sections.push({ line: i + 1, values: new Map() });
			return;
		}
		const eq = line.indexOf('=');
		if (eq <= 0) throw new ImportError(`${file}:${i + 1}: expected [section] or key=value, got "${line.slice(0, 40)}"`);
		(sections.at(-1)?.values ?? top).set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
	});
	return { top, sections };
}

/** One Race for Kicks scoreboard (`thisrace.sb`) read as importR4k reads it, with what it set aside. */
export interface R4kScoreboard {
	/** Sorted by lap; each racer's best lap (seconds), equal laps tie. Empty when no replay competes. */
	readonly entries: RaceEntry[];
	/** The latest `posted` date of the replays read, if any. */
	readonly latestPosted?: string | undefined;
	/** Replays with a `competing` key, dropped. */
	readonly dropped: number;
	/** Slower or repeated replays of a racer, set aside for the best one. */
	readonly superseded: number;
}

/** Read a `thisrace.sb` (rules in importR4k's comment); `file` names it in errors. */
export function readR4kScoreboard(scoreboard: string, file: string): R4kScoreboard {
	const best = new Map<string, number>();
	let latestPosted: string | undefined;
	let dropped = 0;
	let superseded = 0;
	for (const { line, values } of readIni(scoreboard, file).sections) {
		if (values.has('competing')) {
			dropped++;
			continue;
		}
		const name = normalizeName(values.get('name') ?? '');
		const lap = values.get('lap') ?? '';
		if (name === '' || !/^\d+$/.test(lap) || Number(lap) === 0) {
			throw new ImportError(`${file}:${line}: expected a name and a lap in hundredths of a second (> 0)`);
		}
		const posted = values.get('posted');
		if (posted !== undefined && isCalendarDate(posted) && (latestPosted === undefined || posted > latestPosted)) {
			latestPosted = posted;
		}
		const previous = best.get(name);
		if (previous !== undefined) superseded++;
		if (previous === undefined || Number(lap) < previous) best.set(name, Number(lap));
	}
	const laps = [...best].sort((a, b) => a[1] - b[1]);
	const entries: RaceEntry[] = laps.map(([player, lap]) => ({
		player,
		// Competition rank: the number of strictly faster laps, plus one; equal laps tie.
		position: laps.filter(([, other]) => other < lap).length + 1,
		time: lap / 100,
		status: 'finished',
	}));
	return { entries, latestPosted, dropped, superseded };
}

/**
 * A `thisrace.sb` as scoreboard text (formatScoreboard, which the scoreboard parser reads back to the same entries):
 * what `/race submit file:thisrace.sb` previews. Throws ImportError on a malformed file or one with no competing replay.
 */
export function r4kScoreboardText(scoreboard: string, file: string): string {
	const { entries } = readR4kScoreboard(scoreboard, file);
	if (entries.length === 0) throw new ImportError(`${file}: no competing replay (every replay has a competing key)`);
	return formatScoreboard(entries);
}

/**
 * Import Race for Kicks scoreboards as elo-zs reads them (`src/R4K/Results.hs`, per test/fixtures/r4k/PROVENANCE.md):
 * - a section with a `competing` key (any value: an extra or rejected replay) is dropped;
 * - each name keeps its best (lowest) lap, given in integer hundredths of a second (the entry's time, in seconds);
 * - the field is sorted by lap, equal laps share a place (rankRace then renumbers without gaps, as `tidyRanks`).
 * The race date is the `.cfg`'s `deadline` (the day the race closed and its results stood). Where the `.cfg` is
 * missing (2020-05 and 2020-06 upstream), the date is the latest `posted` of the race's replays, and a note says so.
 * Races are in folder order (`YYYY-MM` sorts chronologically).
 */
export function importR4k(folders: readonly R4kRaceFiles[]): ImportResult {
	const notes: string[] = [];
	let dropped = 0;
	let superseded = 0;
	const races: Race[] = [];
	const seen = new Set<string>();
	for (const { folder, scoreboard, config } of [...folders].sort((a, b) => (a.folder < b.folder ? -1 : 1))) {
		if (seen.has(folder)) throw new ImportError(`race folder ${folder} given twice`);
		seen.add(folder);
		const read = readR4kScoreboard(scoreboard, `${folder}/thisrace.sb`);
		dropped += read.dropped;
		superseded += read.superseded;
		const { entries, latestPosted } = read;
		if (entries.length === 0) {
			notes.push(`${folder}: no competing replay, race skipped`);
			continue;
		}
		let date: string | undefined;
		if (config !== undefined) {
			date = readIni(config, `${folder}/thisrace.cfg`).top.get('deadline');
			if (date === undefined || !isCalendarDate(date)) {
				throw new ImportError(`${folder}/thisrace.cfg: expected deadline=YYYY-MM-DD, got "${date ?? ''}"`);
			}
		} else {
			date = latestPosted;
			notes.push(`${folder}: no thisrace.cfg, dated by its latest posted replay (${date ?? 'none: undated'})`);
		}
		races.push({ id: folder, date, entries });
	}
	if (dropped > 0) notes.push(`dropped ${dropped} replay(s) with a competing key`);
	if (superseded > 0) notes.push(`kept each racer's best lap: ${superseded} slower or repeated replay(s) set aside`);
	return { races, notes };
}
