/** A large result file is read on a worker thread, to the same reading as in this thread (read-race-file.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRaceFile } from '../../src/formats/results/read-file.js';
import { ResultFileError } from '../../src/formats/results/types.js';
import { OFF_THREAD_BYTES, readRaceFileOffThread } from '../../src/services/races/read-race-file.js';

const teamRace = readFileSync(
	join(import.meta.dirname, '../fixtures/results/jasondilworth56-iracingdataapi/result_with_team.json'),
);

describe('readRaceFileOffThread', () => {
	it('reads a file over the limit on a worker: the same reading as in this thread', async () => {
		// The real 2.3 MiB team race, padded with the whitespace JSON allows, past the size read on a worker.
		const padded = Buffer.concat([teamRace, Buffer.alloc(OFF_THREAD_BYTES, 0x20)]);
		expect(padded.length).toBeGreaterThan(OFF_THREAD_BYTES);
		const options = { knownPlayers: ['Some Driver'], fileName: 'result.json' };
		expect(await readRaceFileOffThread(padded, options)).toEqual(readRaceFile(padded, options));
	});

	it("gives a file's refusal back as a ResultFileError with its message", async () => {
		const garbage = Buffer.concat([Buffer.from('\x89PNG'), Buffer.alloc(OFF_THREAD_BYTES, 0)]); // not text
		let inThread: Error | undefined;
		try {
			readRaceFile(garbage);
		} catch (error) {
			inThread = error as Error;
		}
		expect(inThread).toBeInstanceOf(ResultFileError);
		await expect(readRaceFileOffThread(garbage, {})).rejects.toEqual(new ResultFileError(inThread!.message));
	});
});
