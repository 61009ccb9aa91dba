import { clip, clipLines } from '../../formats/clip-text.js';
import {
	createWaitingItems,
	expiredPreview,
	findStoredPreview,
	newPreviewId,
	PREVIEW_TTL_MS,
	storePreviewOnce,
} from './previews.js';
import type { EntryInput, RaceInput, SimIdClaim } from '../../league/league-events.js';
import type { LeagueLog, RaceRecord } from '../../league/race-log.js';
import { escapeForDiscord } from '../../formats/discord-escape.js';
import { parseScoreboard, type NameSuggestion, type ScoreboardResult } from '../../formats/scoreboard.js';
import { placeOf } from '../../formats/scoreboard-line.js';
import { fileSubmission, simIdKind, type RaceFile, type Renames, type Submission } from './submission.js';
import { detectResultFormat } from '../../formats/results/index.js';
import type { ClassCount } from '../../formats/results/to-scoreboard.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { requireOrganizer, type Actor } from '../actor.js';
import { refuse, refused } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';
import { createChangeCache, type ChangeCache } from '../caches/change-cache.js';
import { changeWhy, type ChangeWhy } from '../ratings/change-why.js';
import { editEffectOptions, effectToday, type RatingEffect } from './rating-effect.js';
import { calendarDay } from '../leagues/league-day.js';
import { editedRaceDate, raceDate } from './race-date.js';
import { sameResultsAs } from '../../league/same-results.js';
import { nameKey } from '../../league/player-names.js';
import { rankRace, type RetirementReading } from '../../ratings/race.js';
import { previewRatings, ratingsAtDate, type PreviewLine } from './race-preview.js';
import { movedRacesText } from '../../league/rating-order.js';

/**
 * Race submissions: submit → parse → validate → preview (nothing stored; the preview waits in memory for 15 minutes,
 * keyed by an id the Confirm/Cancel buttons carry); confirm → one race-submitted event carrying the preview id. The
 * preview is dropped only once its event is stored, and the log refuses a second event with the same preview id, so
 * Confirm can be pressed again after any failure: it stores the race, or answers where it already is (item
 * 3). Also void, edit (previewed and confirmed the same way), show, list.
 */

export const RACES_PER_PAGE = 10;

export interface SubmitInput {
	readonly league?: string | undefined;
	/** The scoreboard as pasted. */
	readonly text?: string | undefined;
	/** Or a file: a sim's result file, a scoreboard CSV or text, a Race for Kicks scoreboard (read-file.ts). */
	readonly file?: RaceFile | undefined;
	/** Of a multi-class result file, the class to rate alone; null: every class (over the league's class). */
	readonly carClass?: string | null | undefined;
	readonly date?: string | undefined;
	readonly name?: string | undefined;
	/** Racers' names read as known players (`[typed, known]`): the suggestions accepted (acceptSuggestions). */
	readonly renames?: Renames | undefined;
}

/**
 * What "Accept suggestions" would do: the flagged new names it reads as their known player (one suggestion, or a
 * case difference), and the flagged ones it keeps, each said why (`Jon: it may be John or Jan`).
 */
export interface PreviewSuggestions {
	readonly renames: Renames;
	readonly kept: readonly string[];
}

export interface RacePreview {
	readonly id: string;
	readonly league: LeagueInfo;
	readonly system: string;
	readonly name?: string | undefined;
	/** The race's date: as given, or the day of confirmation's preview in the league's time zone. */
	readonly date: string;
	/** The organizer gave no date: the race is dated today. */
	readonly datedToday: boolean;
	readonly lines: readonly PreviewLine[];
	/** Where the results came from, when a sim's result file: "Read as … results: race, 24 cars". */
	readonly source?: string | undefined;
	/** The classes of a result file of several (chooseClass), and the one rated alone. */
	readonly classes?: readonly ClassCount[] | undefined;
	readonly carClass?: string | undefined;
	/** Parser warnings, including possible typos ("did you mean …"). */
	readonly warnings: readonly string[];
	/** Set when some flagged name has one suggestion: the preview offers "Accept suggestions". */
	readonly suggestions?: PreviewSuggestions | undefined;
	/** The suggestions accepted, said: "Read Gabor Kovacs as Gábor Kovács, Alcu as Alecu." */
	readonly accepted?: string | undefined;
	readonly unrated?: string | undefined;
	readonly expiresAt: Date;
	readonly by: string;
}

/**
 * A confirmed preview: stored now, or (`already`) stored by an earlier press of the same Confirm, here, before a
 * restart or in another process; nothing was stored twice.
 */
export type ConfirmedRace =
	| {
			readonly already: false;
			readonly league: LeagueInfo;
			readonly race: string;
			readonly newPlayers: readonly string[];
			readonly preview: RacePreview;
	  }
	| { readonly already: true; readonly league: LeagueInfo; readonly race: string };

/** A confirmed correction (`already`: by an earlier press of the same Confirm, as for ConfirmedRace). */
export interface ConfirmedEdit {
	readonly already: boolean;
	readonly view: RaceView;
	readonly warnings: readonly string[];
}

export interface RaceView {
	readonly league: LeagueInfo;
	readonly race: RaceRecord;
	/** Entries with display names. */
	readonly entries: readonly (EntryInput & { readonly name: string })[];
	/** `/race show`: why each racer's headline rating moved. */
	readonly why?: RaceWhy | undefined;
	/** `/race restore`: the races rated after the restored one, whose ratings were recomputed (movedRacesText). */
	readonly moved?: string | undefined;
}

/** A race explained under one system: every rated racer in finishing order, or why the system did not rate it. */
export interface RaceWhy {
	readonly system: string;
	readonly racers: readonly ChangeWhy[];
	readonly unrated?: string | undefined;
}

export interface RacePage {
	readonly league: LeagueInfo;
	readonly page: number;
	readonly pages: number;
	readonly races: readonly RaceRecord[];
	readonly total: number;
}

/** A new date or name of a race, given to /race edit besides (or instead of) its results. */
export interface EditDetails {
	readonly date?: string | undefined;
	readonly name?: string | undefined;
}

/** A correction waiting for Confirm: the race's results as stored and as they would become. */
export interface EditPreview {
	readonly id: string;
	readonly league: LeagueInfo;
	readonly race: string;
	readonly reason: string;
	readonly before: readonly (EntryInput & { readonly name: string })[];
	readonly after: readonly (EntryInput & { readonly name: string })[];
	/** The race's date now and after the correction, when the correction changes it. */
	readonly date?: { readonly before?: string | undefined; readonly after: string } | undefined;
	/** The race's name now and after the correction, when the correction changes it. */
	readonly name?: { readonly before?: string | undefined; readonly after: string } | undefined;
	/** What confirming would do to today's headline ratings, this race's racers and everyone else. */
	readonly effect: RatingEffect;
	readonly warnings: readonly string[];
	readonly expiresAt: Date;
	readonly by: string;
}

export interface RaceService {
	submit(actor: Actor, input: SubmitInput): Promise<RacePreview>;
	/**
	 * A multi-class result file's preview again, rating one class (`choice` k: the preview's k-th class) or every
	 * class as one field (0); the old preview is replaced (organizers, within its 15 minutes).
	 */
	chooseClass(actor: Actor, previewId: string, choice: number): Promise<RacePreview>;
	/**
	 * The preview again with each flagged new name read as its suggested known player (preview.suggestions); the old
	 * preview is replaced (organizers, within its 15 minutes).
	 */
	acceptSuggestions(actor: Actor, previewId: string): Promise<RacePreview>;
	/** Refuses, as `submit` would, a member who may not submit to the league (before a form is opened). */
	checkSubmitter(actor: Actor, league: string | undefined): Promise<LeagueInfo>;
	/** By an organizer at the time of the press; idempotent per preview (ConfirmedRace). */
	confirm(actor: Actor, previewId: string): Promise<ConfirmedRace>;
	cancel(actor: Actor, previewId: string): Promise<RacePreview>;
	void(actor: Actor, race: string, reason: string): Promise<RaceView>;
	/** A voided race counts again; ratings replay from it on, as after an edit. */
	restore(actor: Actor, race: string, reason: string): Promise<RaceView>;
	/** `text`: the corrected results (undefined keeps them); `details`: a new date or name. */
	edit(
		actor: Actor,
		race: string,
		text: string | undefined,
		reason: string,
		details?: EditDetails,
	): Promise<{ view: RaceView; warnings: string[] }>;
	/** `edit` checked and shown, stored only on `confirmEdit` (within 15 minutes, by an organizer). */
	previewEdit(
		actor: Actor,
		race: string,
		text: string | undefined,
		reason: string,
		details?: EditDetails,
	): Promise<EditPreview>;
	confirmEdit(actor: Actor, previewId: string): Promise<ConfirmedEdit>;
	cancelEdit(actor: Actor, previewId: string): Promise<EditPreview>;
	show(actor: Actor, race: string): Promise<RaceView>;
	list(actor: Actor, league: string | undefined, page?: number): Promise<RacePage>;
	/** Previews waiting for a click (tests, diagnostics). */
	pendingCount(): number;
	/**
	 * Takes a waiting preview out of this process's memory, with the race it would store, for a caller that keeps it
	 * where every process finds it (the results inbox, services/inbox-service.ts); undefined when it is not waiting.
	 */
	takePreview(actor: Actor, previewId: string): Promise<TakenPreview | undefined>;
}

/** A race preview taken out of memory (RaceService.takePreview): what its Confirm stores. */
export interface TakenPreview {
	readonly preview: RacePreview;
	readonly race: RaceInput;
	/** Sim ids claimed for the race's new racers, stored with the race (race-submitted `simIds`). */
	readonly simIds?: SimIdClaim[] | undefined;
}

export interface RaceServiceOptions {
	readonly clock?: () => Date;
	readonly newId?: () => string;
	/** The rated history `/race show` explains, shared with the rating service (services/index.ts). */
	readonly changes?: ChangeCache | undefined;
}

/** The preview's warning when one racer alone is rated (the others did not start, or their retirements are left out). */
function soloRace(race: RaceInput, retirements: RetirementReading | undefined): string[] {
	const rated = rankRace({ ...race, id: 'preview' }, retirements);
	if (rated.length !== 1) return [];
	return [
		`Only ${rated[0]!.player} is rated in this race: with no one to compare against, no rating learns anything ` +
			'from it. Confirm only if the scoreboard is complete.',
	];
}

/** The preview's warning when a stored race has the same results (sameResultsAs). */
function doubleSubmission(state: LeagueLog, race: RaceInput): string[] {
	const same = sameResultsAs(state, race);
	if (same === undefined) return [];
	const { id, name, date } = same.race;
	const named = name !== undefined ? ` “${name}”` : '';
	const dated = date !== undefined ? ` (${date})` : '';
	const how = same.timed ? 'with the same times' : 'on the same day';
	return [
		`This scoreboard is the same as ${id}${named}${dated}: the same racers in the same places, ${how}. ` +
			'Confirm only if it is another race.',
	];
}

const knownPlayersOf = (state: LeagueLog) => state.players().flatMap((p) => [p.name, ...p.aliases]);

function parse(text: string, state: LeagueLog, renames?: Renames) {
	return scoreboardEntries(parseScoreboard(text, { knownPlayers: knownPlayersOf(state), renames }));
}

/**
 * Which flagged names "Accept suggestions" reads as a known player: one suggestion, or a case difference, and that
 * player not in the race already (two racers cannot be one player); the others are kept, and said.
 */
function suggestionsOf(
	flagged: readonly NameSuggestion[] | undefined,
	entries: readonly EntryInput[],
	state: LeagueLog,
): PreviewSuggestions | undefined {
	const idOf = (name: string) => state.resolve(name)?.id ?? nameKey(name);
	const inRace = (player: string, known: string) =>
		entries.some((e) => nameKey(e.player) !== nameKey(player) && idOf(e.player) === idOf(known));
	const renames: [string, string][] = [];
	const kept: string[] = [];
	for (const { player, known, caseOnly } of flagged ?? []) {
		const to = known[0]!;
		if (!caseOnly && known.length > 1) {
			kept.push(`${player}: it may be ${known.slice(0, -1).join(', ')} or ${known.at(-1)}`);
		} else if (inRace(player, to)) {
			kept.push(`${player}: ${to} is in the race already`);
		} else {
			renames.push([player, to]);
		}
	}
	return renames.length === 0 ? undefined : { renames, kept };
}

/** `Read Gabor Kovacs as Gábor Kovács, Alcu as Alecu. Kept Jon: it may be John or Jan.` */
function acceptedText({ renames, kept }: PreviewSuggestions): string {
	const read = `Read ${renames.map(([typed, known]) => `${typed} as ${known}`).join(', ')}.`;
	return kept.length === 0 ? read : `${read} Kept ${kept.join('; ')}.`;
}

/** A paste or a file as the entries of a race, with what the preview says about the file (submission.ts). */
async function readSubmission(input: SubmitInput, state: LeagueLog): Promise<Submission> {
	const choice = { asked: input.carClass, league: state.config()?.carClass };
	const text = input.text ?? '';
	// Results pasted as a sim or a site shows them (a Mario Kart lounge table, a formula1.com classification) are read
	// as that format, exactly as the same text in a file would be.
	if (input.file === undefined && detectResultFormat(text) !== undefined) {
		const pasted = { name: 'pasted results', bytes: new TextEncoder().encode(text) };
		return fileSubmission(pasted, choice, knownPlayersOf(state), scoreboardEntries, input.renames);
	}
	if (input.file === undefined) {
		if (input.carClass !== undefined && input.carClass !== null) {
			throw refused('bad-results-file', 'class: is for a sim result file with classes; a pasted scoreboard has none.');
		}
		return parse(text, state, input.renames);
	}
	return fileSubmission(input.file, choice, knownPlayersOf(state), scoreboardEntries, input.renames);
}

/**
 * Racers the league knows by their sim id are that player whatever the file calls them (a driver who renamed in the
 * sim): the entry names the player by id, and the note says so. The other ids are claimed for the players the race
 * names, stored with the race on Confirm.
 */
function knownDrivers(submission: Submission, state: LeagueLog): Submission & { claims: SimIdClaim[] } {
	const claims: SimIdClaim[] = [];
	const warnings = [...submission.warnings];
	const notes = submission.notes === undefined ? undefined : [...submission.notes];
	const entries = submission.entries.map((entry, i) => {
		const simId = submission.simIds?.[i];
		if (simId === undefined) return entry;
		const owner = state.playerBySimId(simId);
		if (owner === undefined) {
			claims.push({ player: entry.player, simId });
			const named = state.resolve(entry.player);
			const kind = simId.slice(0, simId.indexOf(':') + 1);
			const other = named?.simIds?.find((id) => id.startsWith(kind));
			if (named !== undefined && other !== undefined) {
				warnings.push(
					`${named.name} raced before with ${simIdKind(simId)} ${other.slice(kind.length)}, and this file's ` +
						`${entry.player} has ${simId.slice(kind.length)}: if they are two drivers, rename one in the sim or ` +
						'Cancel and give the new one another name.',
				);
			}
			return entry;
		}
		if (state.resolve(entry.player)?.id !== owner.id && notes !== undefined) {
			const was = `“${entry.player}” in the file, same ${simIdKind(simId)}`;
			notes[i] = notes[i] === undefined ? was : `${was} · ${notes[i]}`;
		}
		return { ...entry, player: owner.id };
	});
	return { ...submission, entries, warnings, ...(notes !== undefined && { notes }), claims };
}

function scoreboardEntries(result: ScoreboardResult): {
	entries: EntryInput[];
	warnings: string[];
	suggestions?: readonly NameSuggestion[] | undefined;
} {
	if (!result.ok) {
		// Whole lines within Discord's 2,000 characters, the rest counted (long lines made it 3,000).
		const lines = result.errors.map((e) => clip(`${placeOf(e)}: ${e.message}`, 300));
		const head = ['The scoreboard has problems, nothing was stored:'];
		if (result.omitted === 0) throw refused('bad-scoreboard', clipLines(head, lines));
		throw refused('bad-scoreboard', clipLines(head, lines, [`…and ${result.omitted} more`]));
	}
	const entries = result.entries.map((e) => ({
		player: e.player,
		position: e.position,
		status: e.status,
		...(e.time !== undefined && { time: e.time }),
	}));
	return { entries, warnings: result.warnings, suggestions: result.suggestions };
}

/**
 * A corrected scoreboard rarely says what each racer drove (a paste has no car column, seldom a team): each racer who
 * was in the race keeps the car and team stored with it (from the sim's file, the history CSV) where the correction
 * names none, so a correction of places never loses them (the car part of endure and speed reads them).
 */
function withStoredCars<T extends { entries: EntryInput[] }>(read: T, record: RaceRecord, state: LeagueLog): T {
	const stored = new Map(record.entries.map((e) => [e.player, e] as const));
	const entries = read.entries.map((entry) => {
		const before = stored.get(state.resolve(entry.player)?.id ?? '');
		const car = entry.car ?? before?.car;
		const team = entry.team ?? before?.team;
		return { ...entry, ...(car !== undefined && { car }), ...(team !== undefined && { team }) };
	});
	return { ...read, entries };
}

/** `Race R5 was voided on 2026-11-25: “duplicate”.` (the reason as the void kept it, escaped). */
function voidedText(race: RaceRecord): string {
	const voided = race.edits.findLast((edit) => edit.kind === 'voided');
	const why = voided === undefined ? '' : ` on ${voided.at.slice(0, 10)}: “${escapeForDiscord(voided.reason)}”`;
	return `Race ${race.id} was voided${why}.`;
}

/** `R3`, `r3` or `League name/R3` (autocomplete values are qualified when the server has several leagues). */
export function splitRaceRef(ref: string): { league: string | undefined; race: string } {
	const slash = ref.lastIndexOf('/');
	const race = (slash === -1 ? ref : ref.slice(slash + 1)).trim().toUpperCase();
	return { league: slash === -1 ? undefined : ref.slice(0, slash).trim(), race };
}

export function createRaceService(
	repo: LeagueRepository,
	leagues: LeagueService,
	options: RaceServiceOptions = {},
): RaceService {
	const { clock = () => new Date(), newId = newPreviewId } = options;
	const changes = options.changes ?? createChangeCache(repo);
	const pending = createWaitingItems(
		repo,
		clock,
		(p: { preview: RacePreview; race: RaceInput; simIds?: SimIdClaim[]; input: SubmitInput }) => p.preview,
	);
	const pendingEdits = createWaitingItems(
		repo,
		clock,
		(p: { preview: EditPreview; text: string | undefined; details: EditDetails }) => p.preview,
	);

	/**
	 * A correction of a race as `edit` stores it and `previewEdit` shows it: organizers only, the same mode; the
	 * results, date and name as given, each kept when not (the date under the submission's rules, race-date.ts).
	 */
	const planEdit = async (actor: Actor, ref: string, text: string | undefined, details: EditDetails = {}) => {
		const { league, state, record } = await findRace(actor, ref);
		requireOrganizer(actor, league.config);
		if (record.status === 'voided') {
			throw refused('bad-edit', `${voidedText(record)} To correct it, restore it first with /race restore.`);
		}
		const givenDate = details.date?.trim() || undefined;
		const givenName = details.name?.trim() || undefined;
		const hasText = text !== undefined && text.trim() !== '';
		if (!hasText && givenDate === undefined && givenName === undefined) {
			throw refused(
				'bad-edit',
				'Nothing to change: give the corrected results, a date or a name. Nothing was changed.',
			);
		}
		const { entries, warnings } = hasText
			? withStoredCars(parse(text, state), record, state)
			: { entries: record.entries, warnings: [] };
		const dating =
			givenDate === undefined ? undefined : editedRaceDate(givenDate, record, state, league.config.timezone, clock());
		const date = dating?.date ?? record.date;
		const changes: RaceInput = {
			entries,
			...(date !== undefined && { date }),
			...(record.mode !== undefined && { mode: record.mode }),
			...(givenName !== undefined && { name: givenName }),
		};
		return { league, state, record, changes, warnings: [...warnings, ...(dating?.warnings ?? [])] };
	};

	const findRace = async (actor: Actor, ref: string) => {
		const { league: leagueRef, race } = splitRaceRef(ref);
		const league = await leagues.resolve(actor, leagueRef);
		const state = await repo.loadState(league.id);
		const record = state.race(race);
		if (!record) {
			throw refused(
				'unknown-race',
				`There is no race "${escapeForDiscord(race)}" in ${escapeForDiscord(league.config.name)}. Try /race list.`,
			);
		}
		return { league, state, record };
	};

	const view = (league: LeagueInfo, state: LeagueLog, race: RaceRecord): RaceView => ({
		league,
		race,
		entries: race.entries.map((e) => ({ ...e, name: state.resolve(e.player)?.name ?? e.player })),
	});

	/** Reads the submission and previews it; it waits for Confirm, with what reading it again needs. */
	const previewSubmission = async (actor: Actor, input: SubmitInput, accepted?: string): Promise<RacePreview> => {
		const league = await leagues.resolve(actor, input.league);
		requireOrganizer(actor, league.config);
		const state = await repo.loadState(league.id);
		const submission = knownDrivers(await readSubmission(input, state), state);
		const { entries, warnings } = submission;
		const name = (input.name ?? submission.name)?.trim();
		const dating = raceDate(input.date ?? submission.date, state, league.config.timezone, clock());
		const race: RaceInput = { entries, date: dating.date, ...(name !== undefined && name !== '' && { name }) };
		const at = clock().toISOString();
		await refuse('bad-race', () => state.check({ type: 'race-submitted', race, by: actor.userId, at }));
		const system = league.config.headline;
		const ratings = await repo.ratingsAt(league.id, system);
		const atDate = await ratingsAtDate(state, ratings.replay, system, race.date);
		const { lines, unrated } = previewRatings(state, atDate, system, race);
		const suggestions = suggestionsOf(submission.suggestions, entries, state);
		const id = newId();
		const preview: RacePreview = {
			id,
			league,
			system,
			...(name !== undefined && name !== '' && { name }),
			date: dating.date,
			datedToday: dating.today,
			lines: submission.notes === undefined ? lines : lines.map((l, i) => ({ ...l, note: submission.notes![i] })),
			...(submission.source !== undefined && { source: submission.source }),
			...(submission.classes !== undefined && submission.classes.length > 1 && { classes: submission.classes }),
			...(submission.carClass !== undefined && { carClass: submission.carClass }),
			warnings: [
				...dating.warnings,
				...warnings,
				...doubleSubmission(state, race),
				...soloRace(race, league.config.retirements),
			],
			...(suggestions !== undefined && { suggestions }),
			...(accepted !== undefined && { accepted }),
			...(unrated !== undefined && { unrated }),
			expiresAt: new Date(clock().getTime() + PREVIEW_TTL_MS),
			by: actor.userId,
		};
		pending.set(id, {
			preview,
			race,
			input,
			...(submission.claims.length > 0 && { simIds: submission.claims }),
		});
		return preview;
	};

	return {
		pendingCount: () => pending.size(),
		async takePreview(actor, previewId) {
			const claimed = await pending.claim(actor, previewId);
			if (claimed === undefined) return undefined;
			pending.delete(previewId);
			return claimed.item;
		},
		async checkSubmitter(actor, leagueRef) {
			const league = await leagues.resolve(actor, leagueRef);
			requireOrganizer(actor, league.config);
			return league;
		},
		submit: (actor, input) => previewSubmission(actor, input),
		async chooseClass(actor, previewId, choice) {
			const claimed = await pending.claim(actor, previewId);
			if (claimed === undefined) throw expiredPreview('nothing was stored', 'Submit the race again.');
			const { preview, input } = claimed.item;
			const classes = preview.classes ?? [];
			if (!Number.isInteger(choice) || choice < 0 || choice > classes.length) {
				throw refused('bad-class', 'This class is no longer offered: submit the race again.');
			}
			const carClass = choice === 0 ? null : classes[choice - 1]!.name;
			const next = await previewSubmission(actor, { ...input, carClass }, preview.accepted);
			pending.delete(previewId);
			return next;
		},
		async acceptSuggestions(actor, previewId) {
			const claimed = await pending.claim(actor, previewId);
			if (claimed === undefined) throw expiredPreview('nothing was stored', 'Submit the race again.');
			const { preview, input } = claimed.item;
			if (preview.suggestions === undefined) {
				throw refused('no-suggestions', 'This preview has no suggested name left to accept.');
			}
			const renames = [...(input.renames ?? []), ...preview.suggestions.renames];
			const next = await previewSubmission(actor, { ...input, renames }, acceptedText(preview.suggestions));
			pending.delete(previewId);
			return next;
		},

		async confirm(actor, previewId) {
			const claimed = await pending.claim(actor, previewId);
			if (claimed === undefined) {
				const found = await findStoredPreview(repo, leagues, actor, previewId, 'submitted');
				if (found) return { already: true, league: found.league, race: found.stored.race };
				throw expiredPreview('nothing was stored', 'Submit the race again.');
			}
			const { item, league } = claimed;
			const { preview } = item;
			// "Dated the day it is confirmed": a preview left open over midnight takes the new day.
			const race = preview.datedToday
				? { ...item.race, date: calendarDay(league.config.timezone, clock()) }
				: item.race;
			// A failure here keeps the preview (pressing Confirm again retries); it is dropped once the event is stored.
			const done = await storePreviewOnce(repo, league, previewId, 'submitted', 'bad-race', () =>
				repo.appendEvent(league.id, {
					type: 'race-submitted',
					race,
					preview: previewId,
					...(item.simIds !== undefined && { simIds: item.simIds }),
					by: actor.userId,
				}),
			);
			pending.delete(previewId);
			if ('already' in done) return { already: true, league, race: done.already.race };
			const state = await repo.loadState(league.id);
			const newPlayers = done.result.newPlayers.map((id) => state.resolve(id)?.name ?? id);
			return { already: false, league, race: done.result.race ?? '?', newPlayers, preview };
		},
		async cancel(actor, previewId) {
			const claimed = await pending.claim(actor, previewId);
			if (claimed === undefined) throw expiredPreview('nothing was stored', 'Submit the race again.');
			pending.delete(previewId);
			return claimed.item.preview;
		},
		async void(actor, ref, reason) {
			const { league, record } = await findRace(actor, ref);
			requireOrganizer(actor, league.config);
			if (record.status === 'voided') {
				throw refused('already-voided', `${voidedText(record)} Nothing was changed.`);
			}
			await refuse('bad-void', () =>
				repo.appendEvent(league.id, { type: 'race-voided', race: record.id, reason, by: actor.userId }),
			);
			const state = await repo.loadState(league.id);
			return view(league, state, state.race(record.id)!);
		},
		async restore(actor, ref, reason) {
			const { league, record } = await findRace(actor, ref);
			requireOrganizer(actor, league.config);
			if (record.status !== 'voided') {
				throw refused('not-voided', `Race ${record.id} is not voided: only a voided race can be restored.`);
			}
			await refuse('bad-restore', () =>
				repo.appendEvent(league.id, { type: 'race-restored', race: record.id, reason, by: actor.userId }),
			);
			const state = await repo.loadState(league.id);
			const restored = state.race(record.id)!;
			const after = state.ratedRaces(state.positionOf(record.id)).map((r) => r.race.id);
			const moved = after.length === 0 ? undefined : movedRacesText(restored.date, after, true);
			return { ...view(league, state, restored), ...(moved !== undefined && { moved }) };
		},
		async edit(actor, ref, text, reason, details = {}) {
			const { league, record, changes, warnings } = await planEdit(actor, ref, text, details);
			await refuse('bad-edit', () =>
				repo.appendEvent(league.id, { type: 'race-edited', race: record.id, reason, changes, by: actor.userId }),
			);
			const after = await repo.loadState(league.id);
			return { view: view(league, after, after.race(record.id)!), warnings };
		},
		async previewEdit(actor, ref, text, reason, details = {}) {
			const { league, state, record, changes, warnings } = await planEdit(actor, ref, text, details);
			const at = clock().toISOString();
			const event = { type: 'race-edited', race: record.id, reason, changes, by: actor.userId, at } as const;
			await refuse('bad-edit', () => state.check(event));
			const effect = await refuse('bad-edit', () =>
				effectToday(repo, league, state, clock(), event, editEffectOptions(state, event)),
			);
			const named = (list: readonly EntryInput[]) =>
				list.map((e) => ({ ...e, name: state.resolve(e.player)?.name ?? e.player }));
			const preview: EditPreview = {
				id: newId(),
				league,
				race: record.id,
				reason,
				before: named(record.entries),
				after: named(changes.entries),
				...(changes.date !== record.date && { date: { before: record.date, after: changes.date! } }),
				...(changes.name !== undefined &&
					changes.name !== record.name && { name: { before: record.name, after: changes.name } }),
				effect,
				warnings,
				expiresAt: new Date(clock().getTime() + PREVIEW_TTL_MS),
				by: actor.userId,
			};
			pendingEdits.set(preview.id, { preview, text, details });
			return preview;
		},
		async confirmEdit(actor, previewId) {
			const claimed = await pendingEdits.claim(actor, previewId);
			if (claimed === undefined) {
				const found = await findStoredPreview(repo, leagues, actor, previewId, 'edited');
				if (found) {
					const race = found.state.race(found.stored.race)!;
					return { already: true, view: view(found.league, found.state, race), warnings: [] };
				}
				throw expiredPreview('nothing was changed', 'Run /race edit again.');
			}
			const { preview, text, details } = claimed.item;
			const { league, record, changes, warnings } = await planEdit(
				actor,
				`${preview.league.id}/${preview.race}`,
				text,
				details,
			);
			const done = await storePreviewOnce(repo, league, previewId, 'edited', 'bad-edit', () =>
				repo.appendEvent(league.id, {
					type: 'race-edited',
					race: record.id,
					reason: preview.reason,
					changes,
					preview: previewId,
					by: actor.userId,
				}),
			);
			pendingEdits.delete(previewId);
			const after = await repo.loadState(league.id);
			const race = 'already' in done ? done.already.race : record.id;
			return { already: 'already' in done, view: view(league, after, after.race(race)!), warnings };
		},
		async cancelEdit(actor, previewId) {
			const claimed = await pendingEdits.claim(actor, previewId);
			if (claimed === undefined) throw expiredPreview('nothing was changed', 'Run /race edit again.');
			pendingEdits.delete(previewId);
			return claimed.item.preview;
		},
		async show(actor, ref) {
			const { league, state, record } = await findRace(actor, ref);
			if (record.status !== 'confirmed') return view(league, state, record);
			const system = league.config.headline;
			const explained = await changes.explain(league, system, record.id);
			const nameOf = (id: string) => state.resolve(id)?.name ?? id;
			const why: RaceWhy | undefined =
				explained === undefined
					? undefined
					: 'unrated' in explained
						? { system, racers: [], unrated: explained.unrated }
						: { system, racers: explained.racers.map((e) => changeWhy(e, record, nameOf)) };
			return { ...view(league, state, record), ...(why && { why }) };
		},
		async list(actor, leagueRef, page = 1) {
			const league = await leagues.resolve(actor, leagueRef);
			const state = await repo.loadState(league.id);
			const all = [...state.races()].reverse();
			const pages = Math.max(1, Math.ceil(all.length / RACES_PER_PAGE));
			if (!Number.isInteger(page) || page < 1 || page > pages) {
				throw refused(
					'bad-page',
					`There ${pages === 1 ? 'is 1 page' : `are ${pages} pages`} of races: choose a page from 1 to ${pages}.`,
				);
			}
			const races = all.slice((page - 1) * RACES_PER_PAGE, page * RACES_PER_PAGE);
			return { league, page, pages, races, total: all.length };
		},
	};
}
