/**
 * What the result-reader tests share: the fixtures (listed, read as bytes, decoded as the bot does), reading with
 * detection checked, the error a reader throws, the snapshots the expectations are written in, and the check that a
 * reader claims no other format's fixture nor a pasted scoreboard.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { decodeResultBytes } from '../../../src/formats/results/decode.js';
import { readRaceFile, type FileReading } from '../../../src/formats/results/read-file.js';
import {
	ResultFileError,
	type ResultEntry,
	type ResultFile,
	type ResultReader,
} from '../../../src/formats/results/types.js';
import type { EntryStatus } from '../../../src/ratings/types.js';

export const RESULTS_DIR = join(import.meta.dirname, '../../fixtures/results');
export const SCOREBOARDS_DIR = join(import.meta.dirname, '../../fixtures/scoreboards');

/** Every file below `dir` but the `.md` notes (PROVENANCE.md), as sorted `/`-separated paths relative to `dir`. */
export function filesBelow(dir: string): string[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((d) => d.isFile() && !d.name.endsWith('.md'))
		.map((d) => relative(dir, join(d.parentPath, d.name)).split('\\').join('/'))
		.sort();
}

/** A result fixture's bytes, by its path below test/fixtures/results. */
export const fixtureBytes = (path: string): Buffer => readFileSync(join(RESULTS_DIR, path));
/** A result fixture decoded as the bot decodes it (text, encoding, warnings). */
export const decodedFixture = (path: string) => decodeResultBytes(fixtureBytes(path));
/** A result fixture's text as the bot reads it. */
export const fixtureText = (path: string): string => decodedFixture(path).text;
/** Text as the bot gets it: bytes decoded by decodeResultBytes. */
export const decodedText = (bytes: Uint8Array): string => decodeResultBytes(bytes).text;

/** `source` read by `reader`, after checking that the reader claims it. */
export function readClaimed(reader: ResultReader, source: string): ResultFile {
	expect(reader.detect(source)).toBe(true);
	return reader.read(source);
}

/** What `reader.read(source)` throws (undefined when it reads). */
export function thrownBy(reader: ResultReader, source: string): unknown {
	try {
		reader.read(source);
	} catch (error) {
		return error;
	}
	return undefined;
}

/** The message of the ResultFileError that `reader.read(source)` must throw. */
export function readErrorMessage(reader: ResultReader, source: string): string {
	const error = thrownBy(reader, source);
	if (error === undefined) throw new Error('expected a ResultFileError');
	expect(error).toBeInstanceOf(ResultFileError);
	return (error as Error).message;
}

export type Row = [
	name: string,
	position: number,
	status: string,
	totalTime: number | undefined,
	laps: number | undefined,
];
/** [name, position, status, totalTime, laps] of every entry. */
export const rows = (file: ResultFile): Row[] =>
	file.entries.map((e) => [e.name, e.position, e.status, e.totalTime, e.laps]);
/** `{ name: value }` of the entries that have `key`. */
export const field = <K extends keyof ResultEntry>(file: ResultFile, key: K) =>
	Object.fromEntries(file.entries.flatMap((e) => (e[key] !== undefined ? [[e.name, e[key]]] : [])));

export type IracingRow = [number, string, EntryStatus, number, number | null, string, number, string?];
/** [position, name, status, laps, Cust ID (null: a team's car), car class, class position, reason out] of each entry. */
export function iracingTable(file: ResultFile): IracingRow[] {
	return file.entries.map((e) => {
		const row: IracingRow = [
			e.position,
			e.name,
			e.status,
			e.laps!,
			e.simId === undefined ? null : Number(e.simId.replace(/^iracing:/u, '')),
			e.carClass!,
			e.classPosition!,
		];
		if (e.reason !== undefined) row.push(e.reason);
		return row;
	});
}

/** iRacing gives no total race time: none is made up; DSQ says so in penalties, nobody else has any. */
export function expectIracingCommon(file: ResultFile, format: 'iracing-csv' | 'iracing-json'): void {
	expect(file.format).toBe(format);
	for (const e of file.entries) {
		expect(e.totalTime).toBeUndefined();
		expect(e.penalties).toEqual(e.status === 'DSQ' ? ['disqualified'] : undefined);
		expect(e.simId === undefined || /^iracing:\d+$/u.test(e.simId)).toBe(true);
	}
}

/** A numbered scoreboard as people paste it. */
export const PASTED_SCOREBOARD = '1. Alice 1:23.456\n2. Bob 1:24.001\n3. Carol DNF\n';

/**
 * `reader` claims none of the result fixtures that are not its own (`isMine` takes a path below
 * test/fixtures/results), no file of the pasted-scoreboard corpus (decoded as the bot does, and as plain UTF-8) and no pasted scoreboard.
 */
export function expectClaimsNoOther(reader: ResultReader, isMine: (path: string) => boolean): void {
	const others = filesBelow(RESULTS_DIR).filter((path) => !isMine(path));
	expect(others.length).toBeGreaterThan(10);
	for (const path of others) expect([path, reader.detect(fixtureText(path))]).toEqual([path, false]);
	const pastes = filesBelow(SCOREBOARDS_DIR);
	expect(pastes.length).toBeGreaterThan(10);
	for (const name of pastes) {
		const bytes = readFileSync(join(SCOREBOARDS_DIR, name));
		expect([name, reader.detect(decodedText(bytes)), reader.detect(bytes.toString('utf8'))]).toEqual([
			name,
			false,
			false,
		]);
	}
	expect(reader.detect(PASTED_SCOREBOARD)).toBe(false);
}

/** The samples that hold a race the scoreboard accepts (the others are refused; each reader's tests say why). */
export function raceSamples(): { path: string; reading: Extract<FileReading, { kind: 'results' }> }[] {
	return filesBelow(RESULTS_DIR).flatMap((name) => {
		const path = join(RESULTS_DIR, name);
		try {
			const reading = readRaceFile(readFileSync(path), { fileName: path });
			return reading.kind === 'results' && reading.board.result.ok ? [{ path, reading }] : [];
		} catch {
			return [];
		}
	});
}
