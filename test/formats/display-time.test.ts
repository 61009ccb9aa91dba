import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayTime } from '../../src/formats/display-time.js';
import { parseTime } from '../../src/formats/history-csv.js';

describe('displayTime: times keep their digits', () => {
	it('writes milliseconds as typed', () => {
		expect(displayTime(84.01)).toBe('1:24.010');
		expect(displayTime(61.5)).toBe('1:01.500');
		expect(displayTime(63)).toBe('1:03.000');
		expect(displayTime(59.12)).toBe('59.120');
		expect(displayTime(3723.4)).toBe('1:02:03.400');
		expect(displayTime(0.001)).toBe('0.001');
	});

	it('keeps a time finer than a millisecond in full', () => {
		expect(displayTime(84.0105)).toBe('1:24.0105');
	});

	it('reads m:ss.fff as one decimal: 9:46.161 is 586.161, not 9·60 + 46.161 (found by the property below)', () => {
		expect(parseTime('9:46.161')).toBe(586.161);
		expect(parseTime('1:31.204')).toBe(91.204);
		expect(parseTime('27:46:39.999')).toBe(99999.999);
	});

	it('reads back as the same number for every millisecond time (under 100 hours)', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 100 * 3600 * 1000 - 1 }), (ms) => {
				expect(parseTime(displayTime(ms / 1000))).toBe(ms / 1000);
			}),
		);
	});
});
