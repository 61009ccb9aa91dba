import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';

function collect(level: Parameters<typeof createLogger>[0]['level'], pretty = false) {
	const lines: string[] = [];
	return { lines, log: createLogger({ level, pretty, write: (line) => lines.push(line) }) };
}

describe('logger', () => {
	it('writes pino-shaped JSON lines: numeric level, time, context, msg', () => {
		const { lines, log } = collect('info');
		log.info({ cmd: 'about', guildId: '1' }, 'handled');
		const record = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
		expect(record).toMatchObject({ level: 30, cmd: 'about', guildId: '1', msg: 'handled' });
		expect(typeof record['time']).toBe('number');
	});

	it('drops records below the level; silent drops everything', () => {
		const { lines, log } = collect('warn');
		log.debug('no');
		log.info({ a: 1 }, 'no');
		log.warn('yes');
		log.fatal('yes');
		expect(lines.map((line) => (JSON.parse(line) as { level: number }).level)).toEqual([40, 60]);
		const silent = collect('silent');
		silent.log.fatal('no');
		expect(silent.lines).toEqual([]);
	});

	it('children carry their bindings; the call context wins', () => {
		const { lines, log } = collect('trace');
		log.child({ interactionId: '9', cmd: 'x' }).child({ userId: '5' }).trace({ cmd: 'y' }, 'hi');
		expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 10, interactionId: '9', userId: '5', cmd: 'y' });
	});

	it('serializes errors with type, message and stack (JSON would drop them)', () => {
		const { lines, log } = collect('info');
		log.error({ err: Object.assign(new TypeError('boom'), { code: 'E_BOOM' }) }, 'failed');
		const { err } = JSON.parse(lines[0] ?? '') as { err: Record<string, unknown> };
		expect(err).toMatchObject({ type: 'TypeError', message: 'boom', code: 'E_BOOM' });
		expect(String(err['stack'])).toContain('TypeError: boom');
	});

	it('pretty mode (pino-pretty) prints a readable line with fields, and the stack of an error', () => {
		const { lines, log } = collect('info', true);
		log.info({ cmd: 'about' }, 'handled');
		expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: handled \{"cmd":"about"\}$/);
		log.error({ err: new Error('bad') }, 'failed');
		expect(lines[1]).toMatch(/ERROR: failed[\s\S]*Error: bad\n\s+at /);
	});
});
