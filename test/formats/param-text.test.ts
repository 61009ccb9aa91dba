import { describe, expect, it } from 'vitest';
import { applyParamText, paramText, ParamTextError } from '../../src/formats/param-text.js';

describe('applyParamText (/league config parameters:)', () => {
	it('sets, overrides and resets per-system values, space- or comma-separated, without touching the input', () => {
		const current = { glicko: { c: '3' }, endure: { k: '0.3' } };
		const next = applyParamText(current, 'glicko.c=2.07, glicko.initialRd=120 endure.k=default speed.k=0.2');
		expect(next).toEqual({ glicko: { c: '2.07', initialRd: '120' }, speed: { k: '0.2' } });
		expect(current).toEqual({ glicko: { c: '3' }, endure: { k: '0.3' } });
	});

	it('refuses text that is not system.name=value, naming the item', () => {
		expect(() => applyParamText({}, 'c=2')).toThrow(
			new ParamTextError('"c=2" is not system.name=value (for example glicko.c=2.07)'),
		);
		expect(() => applyParamText({}, 'glicko.c=')).toThrow(/"glicko.c=" is not system.name=value/);
		expect(() => applyParamText({}, ' , ')).toThrow(/no parameters given/);
	});
});

describe('paramText', () => {
	it('writes a league’s parameters as applyParamText reads them back (values as text, full precision)', () => {
		const params = { glicko: { c: 0.9935127061, initialRd: '317.3' }, endure: { phi: 0.999653 } };
		const text = paramText(params);
		expect(text).toBe('glicko.c=0.9935127061 glicko.initialRd=317.3 endure.phi=0.999653');
		expect(applyParamText({}, text)).toEqual({
			glicko: { c: '0.9935127061', initialRd: '317.3' },
			endure: { phi: '0.999653' },
		});
		expect(paramText({})).toBe('');
	});
});
