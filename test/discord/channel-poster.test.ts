import { describe, expect, it } from 'vitest';
import { postFailureOf } from '../../src/discord/channel-poster.js';

/** How Discord's answers to a channel post are read (src/discord/channel-poster.ts). */
describe('postFailureOf', () => {
	it('reads Discord’s status and JSON code', () => {
		expect(postFailureOf({ status: 404, code: 10003 })).toEqual({ kind: 'missing-channel', status: 404, code: 10003 });
		expect(postFailureOf({ status: 403, code: 50001 })).toEqual({ kind: 'missing-access', status: 403, code: 50001 });
		expect(postFailureOf({ status: 403, code: 50013 })).toEqual({
			kind: 'missing-permission',
			status: 403,
			code: 50013,
		});
		expect(postFailureOf({ status: 403, code: 40001 })).toMatchObject({ kind: 'missing-permission' });
		expect(postFailureOf({ status: 500, code: 0 })).toEqual({ kind: 'http', status: 500, code: 0 });
		expect(postFailureOf({ status: 400, code: 50035 })).toEqual({ kind: 'http', status: 400, code: 50035 });
	});

	it('anything that is not an HTTP answer is not a failure to record (the caller rethrows it)', () => {
		expect(postFailureOf(new Error('socket hang up'))).toBeUndefined();
		expect(postFailureOf(undefined)).toBeUndefined();
		expect(postFailureOf({ code: 'ECONNRESET' })).toBeUndefined();
	});
});
