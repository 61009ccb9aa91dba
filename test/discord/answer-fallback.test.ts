/**
 * The pieces of the fallback for an answer Discord refused or failed (the e2e side is test/e2e/discord-faults.test.ts):
 * which discord.js errors are answers not taken, the fallback's words, and the count of writes it relies on.
 */
import { DiscordAPIError, HTTPError } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { answerFailureOf } from '../../src/discord/errors.js';
import { fallbackText } from '../../src/discord/reply.js';
import { countingWrites, countWrite, storedSoFar } from '../../src/services/write-witness.js';
import { observeWrites } from '../../src/services/observed-writes.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';

const API = 'https://discord.com/api/v10';
const TOKEN = 'aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OmFiYw';
const CALLBACK = `${API}/interactions/1234567890123456789/${TOKEN}/callback?with_response=false`;
const ORIGINAL = `${API}/webhooks/123456789012345678/${TOKEN}/messages/@original`;
const FOLLOW_UP = `${API}/webhooks/123456789012345678/${TOKEN}?wait=true`;

const invalidForm = { message: 'Invalid Form Body', code: 50035, errors: {} };
const refused = (method: string, url: string, body: unknown) =>
	new DiscordAPIError(invalidForm, 50035, 400, method, url, { body, files: undefined });
const failed = (method: string, url: string, body: unknown) =>
	new HTTPError(500, 'Internal Server Error', method, url, { body, files: undefined });

describe('answerFailureOf', () => {
	it('the callback (the first answer), an edit, a deletion and a follow-up, with the message first line', () => {
		const reply = { type: 4, data: { content: 'Stored as **R12** in **Cup**.\nNew players: Ann.' } };
		expect(answerFailureOf(refused('POST', CALLBACK, reply))).toEqual({
			status: 400,
			code: 50035,
			request: 'callback',
			firstLine: 'Stored as **R12** in **Cup**.',
		});
		expect(answerFailureOf(failed('PATCH', ORIGINAL, { embeds: [{ title: 'Cup: ratings' }] }))).toEqual({
			status: 500,
			code: undefined,
			request: 'edit',
			firstLine: 'Cup: ratings',
		});
		expect(answerFailureOf(failed('DELETE', ORIGINAL, undefined))).toMatchObject({ request: 'delete' });
		expect(answerFailureOf(failed('POST', FOLLOW_UP, { content: '' }))).toMatchObject({
			request: 'followUp',
			firstLine: undefined,
		});
	});

	it('not an answer: other Discord routes, an expired interaction, any other error', () => {
		const role = `${API}/guilds/223456789012345678/members/323456789012345678/roles/423456789012345678`;
		expect(answerFailureOf(failed('PUT', role, undefined))).toBeUndefined();
		const expired = new DiscordAPIError({ message: 'Unknown interaction', code: 10062 }, 10062, 404, 'POST', CALLBACK, {
			body: {},
			files: undefined,
		});
		expect(answerFailureOf(expired)).toBeUndefined();
		expect(answerFailureOf(new Error('boom'))).toBeUndefined();
		expect(answerFailureOf(undefined)).toBeUndefined();
	});
});

describe('fallbackText', () => {
	const failure = { status: 400, code: 50035, request: 'edit', firstLine: 'Voided **R3** in **Cup**.' } as const;

	it('after a read: what Discord did, and that nothing was changed', () => {
		expect(fallbackText(failure, false)).toBe(
			'I could not show that answer: Discord refused it (error 50035). Nothing was changed.',
		);
	});

	it('after a write: stored, in the first words of its answer; a 5xx names its status', () => {
		expect(fallbackText({ ...failure, status: 502, code: undefined }, true)).toBe(
			'I could not show that answer: Discord failed (error 502). ' +
				'What you asked for was stored all the same: Voided **R3** in **Cup**.',
		);
		expect(fallbackText({ ...failure, firstLine: undefined }, true)).toMatch(/stored all the same\.$/);
		expect(fallbackText({ ...failure, firstLine: 'x'.repeat(5000) }, true).length).toBeLessThan(450);
	});
});

describe('the write witness', () => {
	const config = { guildId: '223456789012345678', name: 'Cup', headline: 'glicko', params: {}, timezone: 'UTC' };

	it('counts the writes that completed under countingWrites, and only those', async () => {
		// Wrapped as createServices wraps it, with the witness as a listener.
		const repo = observeWrites(createLeagueRepository(createMemoryStore()), [countWrite]);
		expect(await countingWrites(async () => (await repo.listLeagues(config.guildId), storedSoFar()))).toBe(false);
		expect(await countingWrites(async () => (await repo.createLeague(config, 'u1'), storedSoFar()))).toBe(true);
		// A refused write (the name is taken) stores nothing.
		const refusedCreate = countingWrites(async () => {
			await repo.createLeague(config, 'u1').catch(() => undefined);
			return storedSoFar();
		});
		expect(await refusedCreate).toBe(false);
		const [league] = await repo.listLeagues(config.guildId);
		const race = {
			entries: [
				{ player: 'Ann', position: 1, status: 'finished' as const },
				{ player: 'Bob', position: 2, status: 'finished' as const },
			],
		};
		const appended = countingWrites(async () => {
			await repo.appendEvent(league!.id, { type: 'race-submitted', race, by: 'u1' });
			return storedSoFar();
		});
		expect(await appended).toBe(true);
		// Outside an interaction (the inbox, a job) nothing is counted, and nothing fails.
		await repo.appendEvent(league!.id, { type: 'race-submitted', race, by: 'u1' });
		expect(storedSoFar()).toBe(false);
	});
});
