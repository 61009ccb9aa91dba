import { describe, expect, it } from 'vitest';
import { yieldToEventLoop } from '../../src/event-loop.js';
import { parseInTurn } from '../../src/storage/keyv-store.js';

const record = (chars: number) => JSON.stringify({ value: { v: 1, text: 'x'.repeat(chars) } });

describe('parseInTurn (the keyv stores deserializer)', () => {
	it('parses a small record at once', () => {
		expect(parseInTurn(record(100))).toEqual({ value: { v: 1, text: 'x'.repeat(100) } });
	});

	it('parses a large record in a turn of its own, after the long work that yielded before it', async () => {
		const order: string[] = [];
		const earlier = yieldToEventLoop().then(() => order.push('piece of long work'));
		const parsed = parseInTurn(record(100_000));
		expect(parsed).toBeInstanceOf(Promise);
		const value = await Promise.resolve(parsed).then((v) => (order.push('parse'), v));
		await earlier;
		expect(order).toEqual(['piece of long work', 'parse']);
		expect(value).toEqual({ value: { v: 1, text: 'x'.repeat(100_000) } });
	});
});
