import { ResultFileError, type ResultEntry, type ResultFile, type ResultReader } from './types.js';

/**
 * A Mario Kart lounge table in the text of Lorenzi's table maker (gb.hlorenzi.com/table), as lounge bots and
 * players write it. Facts (the maker's own parser, and the bots that generate its text):
 * - one item a line; blank lines are only for the eye. A line starting with `#` is a directive (`#title 12 races`,
 *   `#date`, `#hide playerScores`, `#mkwii`) or, alone, a team colour (`#ff0000`): never a racer.
 * - a racer line is `name [flag] scores`: the scores are the last space-separated token, made only of digits,
 *   `|`, `+` and `-` (`29|29|42`, `70+20+8`, `90-10`); `|` separates columns (grand prix), `+`/`-` add up within
 *   one; negative numbers are penalties. The flag (`[us_tx]`, `[de]`, `[]`) is optional.
 * - any other line is a team line above its racers: `TAG - Full Team Name #ff00ff`, `A`, `FFA - Free for All`;
 *   the tag is what comes before the first `-`. A line `Penalty -10` under a team is the team's penalty.
 * - a substitution is written in the name: `promise(4)/Bad Wolf(8) 29|29|0` (one spot, two players).
 * The rule: racers are placed by total points (all columns, penalties included), highest first; equal totals share
 * a place (`tied`), listed in the table's order, with a warning naming the tie. All racers took part: `finished`.
 * The table has no times or laps. Team tags become `team` when the table has two teams or more.
 */

const NAME = 'Mario Kart lounge table (Lorenzi table maker)';
/** The maker's racer line: a name, spaces, then a token of digits, `|`, `+`, `-` to the end of the line. */
const RACER = /^(.*\S) +([0-9+|-]+)$/u;
/** A flag right after the name, as the maker reads it: `Alice [us]`, `Bob []`. */
const FLAGGED = /^(.*\S) +\[([^\]]*)\]$/u;
const DIRECTIVE = /^#(\w+)(?:\s+(.*))?$/u;
const TEAM_COLOUR = / +#([0-9A-Fa-f]{6})$/u;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/u;
/** A bot command pasted with the table (`?ctupdate sq 12`, `!submit 3`): only before anything else. */
const BOT_COMMAND = /^[!?/][A-Za-z]\w*(?:\s|$)/u;
/** `name(4)/other(8)`: a spot shared by players who each raced the races in brackets. */
const SUBSTITUTION = /\(\d+\)/u;
/** How far detect looks: a table of 12 racers and 6 teams fits in far less. */
const DETECT_CHARS = 4000;

interface Racer {
	readonly line: number;
	readonly name: string;
	readonly flag: string | undefined;
	readonly total: number;
	readonly penalty: number;
	/** The score token has a `|`, `+` or inner `-` between digits: the maker's own notation. */
	readonly joined: boolean;
}

interface Team {
	readonly line: number;
	/** The text of the team line, for warnings. */
	readonly text: string;
	readonly tag: string | undefined;
	readonly racers: Racer[];
	penalty: number;
	penaltyLines: number[];
}

export const lorenziReader: ResultReader = {
	id: 'lorenzi',
	name: NAME,
	detect,
	read,
};

/**
 * A score token as the maker reads it: columns split on `|`, each a sum of signed integers; undefined when a
 * column holds no number (`12||15`) or a number is too long to be a score.
 */
function readScores(token: string): { total: number; penalty: number } | undefined {
	let total = 0;
	let penalty = 0;
	for (const column of token.split('|')) {
		const numbers = column.match(/[+-]?\d+/gu);
		if (numbers === null) return undefined;
		for (const text of numbers) {
			if (text.replace(/^[+-]/u, '').length > 6) return undefined;
			const value = Number(text);
			total += value;
			if (value < 0) penalty += value;
		}
	}
	return { total, penalty };
}

function readRacer(line: string, lineNumber: number): Racer | undefined {
	const match = RACER.exec(line);
	if (!match) return undefined;
	const left = match[1]!;
	const token = match[2]!;
	const scores = readScores(token);
	if (!scores) return undefined;
	const flagged = FLAGGED.exec(left);
	const rawName = flagged ? flagged[1]! : left;
	return {
		line: lineNumber,
		name: cleanName(rawName),
		flag: flagged ? flagged[2]!.trim() : undefined,
		total: scores.total,
		penalty: scores.penalty,
		joined: /\d[|+-]+\d/u.test(token),
	};
}

/** Trimmed, inner whitespace collapsed, and the zero-width space bots put before a name starting with `#`. */
function cleanName(name: string): string {
	return name
		.replace(/^\u200b+/u, '')
		.replace(/\s+/gu, ' ')
		.trim();
}

function readTeamLine(line: string, lineNumber: number): Team {
	const withoutColour = line.replace(TEAM_COLOUR, '');
	const dash = withoutColour.indexOf('-');
	const tag = cleanName(dash < 0 ? withoutColour : withoutColour.slice(0, dash));
	return { line: lineNumber, text: line, tag: tag === '' ? undefined : tag, racers: [], penalty: 0, penaltyLines: [] };
}

const isTeamPenalty = (racer: Racer): boolean => racer.name.toLowerCase() === 'penalty' && racer.total <= 0;

interface Parsed {
	title: string | undefined;
	date: string | undefined;
	teams: Team[];
	/** Racers above the first team line. */
	loose: Team;
	warnings: string[];
}

function parse(text: string): Parsed {
	const parsed: Parsed = {
		title: undefined,
		date: undefined,
		teams: [],
		loose: readTeamLine('', 0),
		warnings: [],
	};
	let current = parsed.loose;
	let started = false;
	const lines = text.split(/\r\n|\n|\r/u);
	lines.forEach((raw, index) => {
		const line = raw.trim();
		const number = index + 1;
		if (line === '') return;
		if (line.startsWith('#')) {
			readDirective(line, number, parsed);
			return;
		}
		if (!started && BOT_COMMAND.test(line)) {
			parsed.warnings.push(`line ${number}: "${line}" looks like a bot command, not part of the table: ignored`);
			return;
		}
		started = true;
		const racer = readRacer(line, number);
		if (racer === undefined) {
			current = readTeamLine(line, number);
			parsed.teams.push(current);
		} else if (isTeamPenalty(racer)) {
			current.penalty += racer.total;
			current.penaltyLines.push(number);
		} else {
			current.racers.push(racer);
		}
	});
	return parsed;
}

function readDirective(line: string, number: number, parsed: Parsed): void {
	const match = DIRECTIVE.exec(line);
	if (!match) return; // a team colour alone (`#ff0000`) or a bare `#`: nothing for the race
	const key = match[1]!.toLowerCase();
	const value = (match[2] ?? '').trim();
	if (key === 'title' && value !== '') parsed.title = value;
	if (key === 'date') {
		if (ISO_DATE.test(value)) parsed.date = value;
		else parsed.warnings.push(`line ${number}: date "${value}" is not YYYY-MM-DD: not read`);
	}
}

/**
 * Detect: at least two racer lines, racer lines the majority of the content, and one mark of the maker that a
 * plain scoreboard paste does not have: a `#title` line, scores joined by `|`/`+`/`-` (`29|29|42`), a flag before
 * the score (`Alice [us] 85`), a `Penalty -N` line, an `FFA` header line, or two team blocks (a tag line, then
 * racers) with no racer in both. `Alice 25` lines alone are a plain scoreboard; a name holding a time
 * (`1. Alice 1:23.456 25`) or a tab (a copied table) is never a racer.
 */
function detect(text: string): boolean {
	const head = text.slice(0, DETECT_CHARS);
	if (/^\s*[{<]/u.test(head)) return false;
	let lines = head.split(/\r\n|\n|\r/u);
	if (text.length > DETECT_CHARS) lines = lines.slice(0, -1); // the last line may be cut
	let racers = 0;
	let content = 0;
	let marked = false;
	let firstContent: string | undefined;
	const blocks: { tagged: boolean; names: string[] }[] = [{ tagged: false, names: [] }];
	for (const raw of lines) {
		const line = raw.trim();
		if (line === '') continue;
		if (line.startsWith('#')) {
			if (/^#title\b/iu.test(line)) marked = true;
			continue;
		}
		content++;
		firstContent ??= line;
		const racer = line.includes('\t') ? undefined : readRacer(line, 0);
		if (racer === undefined) {
			blocks.push({ tagged: true, names: [] });
			continue;
		}
		if (/\d:\d\d/u.test(racer.name)) return false;
		if (isTeamPenalty(racer) || racer.flag !== undefined || racer.joined) marked = true;
		racers++;
		blocks.at(-1)!.names.push(racer.name.toLowerCase());
	}
	if (racers < 2 || racers * 2 < content) return false;
	if (firstContent !== undefined && /^FFA\b/iu.test(firstContent)) marked = true;
	const teamBlocks = blocks.filter((block) => block.tagged && block.names.length > 0);
	const names = teamBlocks.flatMap((block) => block.names);
	if (teamBlocks.length >= 2 && new Set(names).size === names.length) marked = true;
	return marked;
}

function read(text: string): ResultFile {
	const parsed = parse(text);
	const { warnings } = parsed;
	const withRacers = parsed.teams.filter((team) => team.racers.length > 0);
	for (const team of parsed.teams) {
		if (team.racers.length === 0 && team.penaltyLines.length === 0) {
			warnings.push(`line ${team.line}: "${team.text}" has no racer under it: ignored`);
		}
	}
	const hasTeams = withRacers.length >= 2;
	const all: { racer: Racer; team: Team }[] = [
		...parsed.loose.racers.map((racer) => ({ racer, team: parsed.loose })),
		...withRacers.flatMap((team) => team.racers.map((racer) => ({ racer, team }))),
	];
	if (all.length === 0) {
		throw new ResultFileError(
			'no racer in this Lorenzi table: racer lines look like "Name [flag] 12|15|9" (a name, then the scores)',
		);
	}
	if (hasTeams && parsed.loose.racers.length > 0) {
		const names = parsed.loose.racers.map((racer) => racer.name).join(', ');
		warnings.push(`${names}: above the first team line, so in no team`);
	}
	noteTeamPenalties(parsed, warnings);
	noteNames(
		all.map(({ racer }) => racer),
		warnings,
	);

	// Stable sort: equal totals keep the table's order.
	const placed = [...all].sort((a, b) => b.racer.total - a.racer.total);
	noteTies(
		placed.map(({ racer }) => racer),
		warnings,
	);
	const entries = placed.map(({ racer, team }, index): ResultEntry => {
		const tag = hasTeams && team.tag !== undefined && !/^FFA$/iu.test(team.tag) ? team.tag : undefined;
		return {
			name: racer.name,
			position: index + 1,
			...(index > 0 && placed[index - 1]!.racer.total === racer.total && { tied: true }),
			points: racer.total,
			status: 'finished',
			...(tag === undefined ? {} : { team: tag }),
			...(racer.penalty < 0 ? { penalties: [`${racer.penalty} points`] } : {}),
		};
	});
	return {
		format: 'lorenzi',
		formatName: NAME,
		...(parsed.title === undefined ? {} : { session: parsed.title }),
		...(parsed.date === undefined ? {} : { date: parsed.date }),
		entries,
		warnings,
	};
}

function noteTeamPenalties(parsed: Parsed, warnings: string[]): void {
	for (const team of [parsed.loose, ...parsed.teams]) {
		if (team.penaltyLines.length === 0) continue;
		const where = team.line === 0 ? 'no team' : `team ${team.tag ?? `"${team.text}"`}`;
		warnings.push(
			`line ${team.penaltyLines.join(', ')}: penalty ${team.penalty} points for ${where}: a team penalty, ` +
				'individual places unchanged',
		);
	}
}

function noteNames(racers: readonly Racer[], warnings: string[]): void {
	const seen = new Map<string, number>();
	for (const racer of racers) {
		const key = racer.name.toLowerCase();
		const first = seen.get(key);
		if (first === undefined) seen.set(key, racer.line);
		else warnings.push(`line ${racer.line}: "${racer.name}" is also on line ${first}: two racers, same name`);
		if (SUBSTITUTION.test(racer.name)) {
			warnings.push(
				`line ${racer.line}: "${racer.name}" is a substitution (players sharing one spot): kept as one racer`,
			);
		}
	}
}

/** Ties share a place (`tied`); each is named for the organizer. */
function noteTies(placed: readonly Racer[], warnings: string[]): void {
	let start = 0;
	for (let i = 1; i <= placed.length; i++) {
		if (i < placed.length && placed[i]!.total === placed[start]!.total) continue;
		if (i - start > 1) {
			const names = placed.slice(start, i).map((racer) => racer.name);
			warnings.push(`tie on ${placed[start]!.total} points: ${names.join(', ')} share place ${start + 1}`);
		}
		start = i;
	}
}
