import { rankRace } from '../race.js';
import type { Race } from '../types.js';

/**
 * relrank's input: one best-of-X game (or several, already summed) between two integer user ids.
 * `roundsA` are the rounds `a` won against `b`, `roundsB` the rounds `b` won against `a` (README "Usage").
 */
export interface Game {
	readonly a: number;
	readonly b: number;
	readonly roundsA: number;
	readonly roundsB: number;
}

/** A clear input error (default mode), with the 1-based line number when it is about one line. */
export class GamesInputError extends Error {
	override readonly name = 'GamesInputError';
	constructor(
		message: string,
		readonly line?: number,
	) {
		super(line === undefined ? message : `line ${line}: ${message}`);
	}
}

/**
 * How the Go reference stops: `panic` (exit 2, stderr `panic: <message>`) or `log.Fatal` (exit 1, stderr
 * `<message>`). Only thrown in compat mode, where we reproduce the reference's crashes instead of explaining.
 */
export class ReferenceCrash extends Error {
	override readonly name = 'ReferenceCrash';
	constructor(
		readonly kind: 'panic' | 'fatal',
		message: string,
	) {
		super(message);
	}

	get exitCode(): 1 | 2 {
		return this.kind === 'panic' ? 2 : 1;
	}

	/** The reference's first stderr line. */
	get stderrLine(): string {
		return this.kind === 'panic' ? `panic: ${this.message}` : this.message;
	}
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const GO_INT_RE = /^[+-]?\d+$/;

/** Go `strconv.ParseInt(text, 10, 64)`; undefined where Go returns an error (syntax or range). */
export function parseGoInt64(text: string): bigint | undefined {
	if (!GO_INT_RE.test(text)) return undefined;
	const value = BigInt(text);
	return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

function toSafe(value: bigint, what: string): number {
	if (value < BigInt(Number.MIN_SAFE_INTEGER) || value > BigInt(Number.MAX_SAFE_INTEGER)) {
		// DEVIATION: the reference takes any int64; we stop at ±(2^53 − 1), far beyond any league's ids or rounds.
		throw new GamesInputError(
			`${what} ${value} is outside ±${Number.MAX_SAFE_INTEGER}, which pitwall does not support`,
		);
	}
	return Number(value);
}

/**
 * Read the games CSV exactly as the Go reference does (specs/relrank.md step 1), crashes included:
 * - only `\n`-terminated lines are read: a last line without `\n` is silently dropped, and empty input panics;
 * - empty lines are skipped; on line index 0 only, a line whose `sp[2]+sp[3]` (string concatenation) is not an
 *   int64 is taken as a header and skipped (so `1,2,3,-1` as a first line is dropped);
 * - a line with fewer than 4 fields panics; extra fields are ignored; any other non-int64 field is fatal.
 * Throws ReferenceCrash where the reference crashes.
 */
export function parseGamesCompat(input: string): Game[] {
	const lastNewline = input.lastIndexOf('\n');
	if (lastNewline < 0) {
		// `ll[:len(ll)-1]` on an empty string
		throw new ReferenceCrash('panic', 'runtime error: slice bounds out of range [:-1]');
	}
	const lines = input.slice(0, lastNewline).split('\n');
	const games: Game[] = [];
	lines.forEach((line, index) => {
		if (line === '') return;
		const sp = line.split(',');
		if (sp.length < 4) {
			// `sp[2]+sp[3]` is evaluated first, for every line
			const missing = sp.length <= 2 ? 2 : 3;
			throw new ReferenceCrash('panic', `runtime error: index out of range [${missing}] with length ${sp.length}`);
		}
		if (index === 0 && parseGoInt64(sp[2]! + sp[3]!) === undefined) return;
		const values = sp.slice(0, 4).map((field) => {
			const value = parseGoInt64(field);
			if (value === undefined) throw new ReferenceCrash('fatal', `${field} is not an integer`);
			return value;
		});
		const [a, b, roundsA, roundsB] = values as [bigint, bigint, bigint, bigint];
		games.push({
			a: toSafe(a, 'user id'),
			b: toSafe(b, 'user id'),
			roundsA: toSafe(roundsA, 'round count'),
			roundsB: toSafe(roundsB, 'round count'),
		});
	});
	return games;
}

const INT_RE = /^[+-]?\d+$/;

/**
 * Read the games CSV the way pitwall does by default: like the reference, minus its silent drops and crashes.
 * - Lines are split on `\n`; a trailing `\r` is removed (CRLF files work); a last line without `\n` is read.
 * - Blank lines are skipped. Fields are trimmed of spaces.
 * - The first non-blank line is a header, and skipped, when **none** of its fields is an integer (`hi,ai,hs,as`).
 *   Any other line must be exactly 4 integers `a,b,rounds_a,rounds_b` (so `1,2,3,-1` is data, and rejected below
 *   for its negative round count, rather than silently dropped as the reference does).
 * - Round counts must be >= 0, the two ids must differ (self-games are inconsistent in the reference), and
 *   there must be at least one game.
 * Throws GamesInputError with the line number.
 */
export function parseGames(input: string): Game[] {
	const games: Game[] = [];
	let seenContent = false;
	input.split('\n').forEach((rawLine, index) => {
		const lineNo = index + 1;
		const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
		if (line.trim() === '') return;
		const fields = line.split(',').map((field) => field.trim());
		const first = !seenContent;
		seenContent = true;
		if (first && fields.every((field) => !INT_RE.test(field))) return; // header
		if (fields.length !== 4) {
			throw new GamesInputError(`expected 4 fields a,b,rounds_a,rounds_b, got ${fields.length}: "${line}"`, lineNo);
		}
		const values = fields.map((field) => {
			const value = INT_RE.test(field) ? BigInt(field) : undefined;
			if (value === undefined) throw new GamesInputError(`"${field}" is not an integer`, lineNo);
			return value;
		});
		const [a, b, roundsA, roundsB] = values as [bigint, bigint, bigint, bigint];
		const game = {
			a: toSafeAt(a, 'user id', lineNo),
			b: toSafeAt(b, 'user id', lineNo),
			roundsA: toSafeAt(roundsA, 'round count', lineNo),
			roundsB: toSafeAt(roundsB, 'round count', lineNo),
		};
		if (game.roundsA < 0 || game.roundsB < 0) throw new GamesInputError('round counts must not be negative', lineNo);
		if (game.a === game.b) throw new GamesInputError(`user ${game.a} plays against itself`, lineNo);
		games.push(game);
	});
	if (games.length === 0) throw new GamesInputError('no games in the input');
	return games;
}

function toSafeAt(value: bigint, what: string, line: number): number {
	try {
		return toSafe(value, what);
	} catch (error) {
		if (error instanceof GamesInputError) throw new GamesInputError(error.message, line);
		throw error;
	}
}

/** The games of a race league, and the mapping between player names and relrank's integer ids. */
export interface RaceGames {
	readonly games: Game[];
	/** Player name -> user id (1-based). */
	readonly idOf: ReadonlyMap<string, number>;
	/** User id -> player name: `players[id - 1]`. */
	readonly players: readonly string[];
}

/**
 * Turn races into relrank games, pairwise: in every race, each rated racer (rankRace: DNS/DSQ dropped, DNF below
 * every finisher) wins one round against each racer ranked below them. A tie gives no round to either, but the
 * pair still counts as having met (a 0-0 game), so a racer who only ever tied still gets a rating (0).
 *
 * Ids: the players of all the races, sorted by name (UTF-16 code unit order), numbered 1..n. Id 0 is never used,
 * because the reference treats user 0 as "not found". The games are summed per pair (one game per pair that met,
 * `a < b`), which gives relrank the same totals as one game per race: it only reads sums of rounds.
 */
export function racesToGames(races: readonly Race[]): RaceGames {
	const rankedRaces = races.map((race) => rankRace(race));
	const names = new Set<string>();
	for (const ranked of rankedRaces) for (const entry of ranked) names.add(entry.player);
	const players = [...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
	const idOf = new Map(players.map((name, index) => [name, index + 1]));
	// wins.get(a * (n + 1) + b) = rounds a won against b
	const n = players.length;
	const wins = new Map<number, number>();
	const met = new Set<number>();
	for (const ranked of rankedRaces) {
		for (let i = 0; i < ranked.length; i++) {
			const upper = ranked[i]!;
			for (let j = i + 1; j < ranked.length; j++) {
				const lower = ranked[j]!;
				const up = idOf.get(upper.player)!;
				const low = idOf.get(lower.player)!;
				met.add(Math.min(up, low) * (n + 1) + Math.max(up, low));
				if (upper.rank === lower.rank) continue;
				const key = up * (n + 1) + low;
				wins.set(key, (wins.get(key) ?? 0) + 1);
			}
		}
	}
	const games: Game[] = [];
	for (let a = 1; a <= n; a++) {
		for (let b = a + 1; b <= n; b++) {
			const roundsA = wins.get(a * (n + 1) + b) ?? 0;
			const roundsB = wins.get(b * (n + 1) + a) ?? 0;
			if (met.has(a * (n + 1) + b)) games.push({ a, b, roundsA, roundsB });
		}
	}
	return { games, idOf, players };
}
