import type { RepliableInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { deferWhenSlow, publiclyDeferred } from '../../src/discord/defer-when-slow.js';

/** An interaction that records what was sent, in order. */
function fakeInteraction() {
	const sent: string[] = [];
	const interaction = {
		deferred: false,
		replied: false,
		deferReply() {
			sent.push('defer');
			interaction.deferred = true;
			return Promise.resolve();
		},
	};
	return { sent, interaction: interaction as unknown as RepliableInteraction };
}

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(resolve, ms, value));

describe('deferWhenSlow (/league config on a big league)', () => {
	it('fast work is answered directly: no defer', async () => {
		const { sent, interaction } = fakeInteraction();
		expect(await deferWhenSlow(interaction, after(1, 'done'), 200)).toBe('done');
		expect(sent).toEqual([]);
		expect(publiclyDeferred.has(interaction)).toBe(false);
	});

	it('slow work is deferred publicly before it ends, and its result still returned', async () => {
		const { sent, interaction } = fakeInteraction();
		const work = after(80, 'done').then((v) => (sent.push('work done'), v));
		expect(await deferWhenSlow(interaction, work, 10)).toBe('done');
		expect(sent).toEqual(['defer', 'work done']);
		expect(publiclyDeferred.has(interaction)).toBe(true);
	});

	it('a slow failure is deferred, then rejects with the error of the work (the router answers it to the user only)', async () => {
		const { sent, interaction } = fakeInteraction();
		const work = after(50, undefined).then(() => Promise.reject(new Error('refused late')));
		await expect(deferWhenSlow(interaction, work, 5)).rejects.toThrow('refused late');
		expect(sent).toEqual(['defer']);
		expect(publiclyDeferred.has(interaction)).toBe(true);
	});
});
