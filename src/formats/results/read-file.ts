import { ImportError } from '../import-table.js';
import { r4kScoreboardText } from '../import-r4k.js';
import { parseScoreboard, type ScoreboardResult } from '../scoreboard.js';
import { decodeResultBytes, type TextEncodingName } from './decode.js';
import { detectResultFormat } from './index.js';
import { resultScoreboard, type ResultScoreboard } from './to-scoreboard.js';
import { ResultFileError, type ResultFile } from './types.js';

/**
 * One file an organizer gives for one race (`/race submit file:`, `pitwall scoreboard --input`, the results inbox):
 * decoded in its own encoding (decode.ts), then read by its content: a sim's result file (index.ts), a Race for
 * Kicks scoreboard, or scoreboard text or CSV as a paste. The bot and the CLI read every file through this one
 * function, so they never disagree.
 */

export interface FileReadOptions {
	readonly knownPlayers?: readonly string[];
	/** Rate one class of a multi-class result file. */
	readonly carClass?: string | undefined;
	/** Names to read as others (ScoreboardOptions.renames: the accepted suggestions). */
	readonly renames?: readonly (readonly [string, string])[] | undefined;
	/** For messages only: the name the file came under. */
	readonly fileName?: string | undefined;
}

export type FileReading =
	| {
			readonly kind: 'results';
			readonly encoding: TextEncodingName;
			readonly file: ResultFile;
			readonly board: ResultScoreboard;
	  }
	| { readonly kind: 'scoreboard'; readonly encoding: TextEncodingName; readonly result: ScoreboardResult };

/** Throws ResultFileError when the file is no text, or a result file that holds no race (the message says why). */
export function readRaceFile(bytes: Uint8Array, options: FileReadOptions = {}): FileReading {
	const decoded = decodeResultBytes(bytes);
	const { text } = decoded; // decode.ts has taken any byte order mark off
	if (looksBinary(text)) {
		throw new ResultFileError(
			'The file is not text: expected a sim result file (JSON, XML, CSV, text) or a scoreboard',
		);
	}
	const reader = detectResultFormat(text);
	if (reader !== undefined) {
		let file: ResultFile;
		try {
			file = reader.read(text);
		} catch (error) {
			if (error instanceof ResultFileError) throw new ResultFileError(`${reader.name}: ${error.message}`);
			throw error;
		}
		const withEncoding = { ...file, warnings: [...decoded.warnings, ...file.warnings] };
		const board = resultScoreboard(withEncoding, options);
		return { kind: 'results', encoding: decoded.encoding, file: withEncoding, board };
	}
	const scoreboardText = isR4kScoreboard(text, options.fileName) ? r4kText(text, options.fileName) : text;
	const result = parseScoreboard(scoreboardText, {
		knownPlayers: options.knownPlayers ?? [],
		renames: options.renames,
	});
	const withNotes = result.ok ? { ...result, warnings: [...decoded.warnings, ...result.warnings] } : result;
	return { kind: 'scoreboard', encoding: decoded.encoding, result: withNotes };
}

/** NUL bytes or many control characters in the first 4,000 characters: an image, an archive, a replay. */
function looksBinary(text: string): boolean {
	const head = text.slice(0, 4000);
	if (head.includes('\0')) return true;
	let controls = 0;
	for (const char of head) {
		const code = char.charCodeAt(0);
		if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code < 0xa0)) controls++;
	}
	return controls > head.length / 100 + 2;
}

/** A Race for Kicks `thisrace.sb`: INI sections of replays, each with a name and a lap in hundredths. */
function isR4kScoreboard(text: string, fileName: string | undefined): boolean {
	if (fileName?.toLowerCase().endsWith('.sb') === true) return true;
	return /^\s*\[[^\]\n]+\]\s*$/mu.test(text) && /^name=/mu.test(text) && /^lap=\d+\s*$/mu.test(text);
}

function r4kText(text: string, fileName: string | undefined): string {
	try {
		return r4kScoreboardText(text, fileName ?? 'thisrace.sb');
	} catch (error) {
		if (error instanceof ImportError) throw new ResultFileError(error.message);
		throw error;
	}
}
