import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calibrate } from '../../src/analysis/calibrate.js';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { getSystem } from '../../src/ratings/index.js';
import { ParamError } from '../../src/ratings/types.js';
import { runCalibrationInWorker } from '../../src/services/calibration/calibration-runner.js';

/** the calibration on its worker thread gives what it gives on this thread, and its refusals. */

const races = parseHistoryCsv(
	readFileSync(new URL('../../data/sample-league.csv', import.meta.url), 'utf8'),
	'sample-league.csv',
);

describe('runCalibrationInWorker', () => {
	it('returns the result calibrate() gives in this thread, the races handed over in chunks', async () => {
		const options = { fixed: { initialRd: 300 }, maxEvaluations: 12 };
		const here = calibrate(getSystem('glicko'), races, options);
		const there = await runCalibrationInWorker({ system: 'glicko', races, options });
		expect(races.length).toBeGreaterThan(200); // more than one chunk
		expect(there).toEqual(here);
		expect(there.races).toBe(293);
	}, 30_000);

	it('a refusal of the parameters comes back as a ParamError, with its message', async () => {
		const bad = runCalibrationInWorker({ system: 'folyami', races, options: { maxEvaluations: 0 } });
		await expect(bad).rejects.toBeInstanceOf(ParamError);
		await expect(bad).rejects.toThrow('calibrate: maxEvaluations must be a positive integer, got 0');
	}, 30_000);
});
