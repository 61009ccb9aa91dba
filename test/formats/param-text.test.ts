import { describe, expect, it } from 'vitest';
import { applyParamText, ParamTextError } from '../../src/formats/param-text.js';

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
