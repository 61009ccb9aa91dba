/**
 * `/league rename` and `/league config channel-default:` (the league a channel means without the league option):
 * the services over the memory store, with their exact messages; a refusal stores nothing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/services/actor.js';
import { addRace, eventCount, member, organizer, ROLE, roleOrganizer, world, type World } from './helpers.js';

const HERE = '600000000000000001';
const THERE = '600000000000000002';
const at = (actor: Actor, channelId: string): Actor => ({ ...actor, channelId });

let w: World;
let cup = '';
let night = '';

beforeEach(async () => {
	w = world();
	cup = (await w.services.leagues.create(organizer, { name: 'Cup' })).id;
	night = (await w.services.leagues.create(organizer, { name: 'Night' })).id;
	await addRace(w, '1. Alice\n2. Bob', 'Cup');
	await addRace(w, '1. Alice\n2. Dora', 'Night');
});

describe('/league rename', () => {
	it('renames under the name rules; the id stays, and the league is found by its new name and its id', async () => {
		const { info, from } = await w.services.leagues.rename(organizer, 'cup', '  Spring   Cup ');
		expect(from).toBe('Cup');
		expect(info.id).toBe(cup);
		expect(info.config.name).toBe('Spring Cup');
		expect((await w.services.leagues.resolve(member, 'spring cup')).id).toBe(cup);
		expect((await w.services.leagues.resolve(member, cup)).config.name).toBe('Spring Cup');
		await expect(w.services.leagues.resolve(member, 'Cup')).rejects.toMatchObject({ code: 'unknown-league' });
		// The races stay with it.
		expect((await w.services.ratings.rating(member, { player: 'Bob' })).league.id).toBe(cup);
		expect((await w.services.leagues.info(member, 'Spring Cup')).races).toBe(1);
	});

	it('refuses a member, a bad name, a name taken by another league, the same name; nothing is stored', async () => {
		const before = await eventCount(w, cup);
		const refusal = (actor: Actor, name: string) => w.services.leagues.rename(actor, 'Cup', name);
		await expect(refusal(member, 'X')).rejects.toMatchObject({
			code: 'not-organizer',
			message: 'Only league organizers (Manage Server permission) can do this.',
		});
		await expect(refusal(organizer, 'night')).rejects.toMatchObject({
			code: 'league-name-taken',
			message: 'Another league of this server is named **Night**: choose another name. Nothing was changed.',
		});
		await expect(refusal(organizer, '#1 Cup')).rejects.toMatchObject({
			code: 'bad-league',
			message: 'The league name "#1 Cup" starts with #, as player ids do (#1): start it with another character.',
		});
		await expect(refusal(organizer, 'A\u200bB')).rejects.toMatchObject({
			code: 'bad-league',
			message:
				'The league name contains the character U+200B: control and invisible formatting characters are not allowed.',
		});
		await expect(refusal(organizer, 'x'.repeat(33))).rejects.toMatchObject({
			message: `The league name "${'x'.repeat(33)}" is 33 characters long: at most 32.`,
		});
		await expect(refusal(organizer, '  ')).rejects.toMatchObject({ message: 'The league name is empty.' });
		await expect(refusal(organizer, 'Cup')).rejects.toMatchObject({
			code: 'same-name',
			message: 'The league is already named **Cup**: nothing was changed.',
		});
		expect(await eventCount(w, cup)).toBe(before);
		// Another case of its own name is a rename.
		expect((await w.services.leagues.rename(organizer, 'Cup', 'CUP')).info.config.name).toBe('CUP');
	});

	it('a renamed league’s old and new names cannot be created again', async () => {
		await w.services.leagues.rename(organizer, 'Cup', 'Spring');
		await expect(w.services.leagues.create(organizer, { name: 'spring' })).rejects.toMatchObject({
			code: 'bad-league',
			message: 'A league named "spring" already exists in this server.',
		});
		await expect(w.services.leagues.create(organizer, { name: 'Cup' })).rejects.toMatchObject({
			code: 'bad-league',
			message:
				'"Cup" was the name of a league of this server that has since been renamed, and its id still takes that name: choose another name.',
		});
		expect((await w.services.leagues.list(organizer.guildId!)).map((l) => l.config.name)).toEqual(['Spring', 'Night']);
	});

	it('another spelling of a league’s name, with the same id, is refused naming that league', async () => {
		await expect(w.services.leagues.create(organizer, { name: 'Night!' })).rejects.toMatchObject({
			code: 'bad-league',
			message: expect.stringMatching(
				/^"Night!" is too close to the name of the league \*\*Night\*\* \(both make the league id `\d+\.night`\): choose a name that differs by more than case, spaces or punctuation\.$/,
			) as unknown,
		});
	});
});

describe('/league config channel-default:', () => {
	it('the channel’s league answers commands without the league option there; elsewhere the refusal says how', async () => {
		await expect(w.services.leagues.resolve(at(member, HERE), undefined)).rejects.toMatchObject({
			code: 'which-league',
			message:
				'This server has 2 leagues (**Cup**, **Night**): choose one with the league option, or an organizer can make one the default of this channel with /league config channel-default:true.',
		});
		const set = await w.services.leagues.setChannelDefault(at(organizer, HERE), 'Night', true);
		expect(set).toMatchObject({ channel: HERE, changed: true, movedFrom: undefined });
		expect(set.info.config.defaultChannels).toEqual([HERE]);
		expect((await w.services.leagues.resolve(at(member, HERE), undefined)).id).toBe(night);
		// The league option still wins; another channel still asks.
		expect((await w.services.leagues.resolve(at(member, HERE), 'Cup')).id).toBe(cup);
		await expect(w.services.leagues.resolve(at(member, THERE), undefined)).rejects.toMatchObject({
			code: 'which-league',
		});
		// A player of both leagues is read from the channel's league.
		expect((await w.services.ratings.rating(at(member, HERE), { player: 'Alice' })).league.id).toBe(night);
		await expect(w.services.ratings.rating(at(member, THERE), { player: 'Alice' })).rejects.toMatchObject({
			code: 'which-league',
		});
		// Again: nothing changes, nothing is stored.
		const before = await eventCount(w, night);
		expect(await w.services.leagues.setChannelDefault(at(organizer, HERE), undefined, true)).toMatchObject({
			changed: false,
		});
		expect(await eventCount(w, night)).toBe(before);
	});

	it('setting it for another league moves the channel and says from which; false takes it back', async () => {
		await w.services.leagues.setChannelDefault(at(organizer, HERE), 'Night', true);
		await w.services.leagues.setChannelDefault(at(organizer, THERE), 'Night', true);
		const moved = await w.services.leagues.setChannelDefault(at(organizer, HERE), 'Cup', true);
		expect(moved.changed).toBe(true);
		expect(moved.movedFrom?.config.name).toBe('Night');
		expect((await w.repo.getLeague(night))!.config.defaultChannels).toEqual([THERE]);
		expect((await w.repo.getLeague(cup))!.config.defaultChannels).toEqual([HERE]);
		expect((await w.services.leagues.resolve(at(member, HERE), undefined)).id).toBe(cup);
		// Off, in the channel (without the league option: the channel's league).
		const off = await w.services.leagues.setChannelDefault(at(organizer, HERE), undefined, false);
		expect(off).toMatchObject({ changed: true, channel: HERE });
		expect(off.info.config.defaultChannels).toBeUndefined();
		expect(await w.services.leagues.setChannelDefault(at(organizer, HERE), 'Cup', false)).toMatchObject({
			changed: false,
		});
		// Other settings and a rename keep the channels.
		await w.services.leagues.configure(organizer, 'Night', { timezone: 'Europe/Budapest' });
		await w.services.leagues.rename(organizer, 'Night', 'Late Night');
		expect((await w.repo.getLeague(night))!.config.defaultChannels).toEqual([THERE]);
		expect((await w.services.leagues.resolve(at(member, THERE), undefined)).config.name).toBe('Late Night');
	});

	it('refuses a member, a role organizer moving another league’s channel, and no channel; nothing is stored', async () => {
		await w.services.leagues.configure(organizer, 'Cup', { organizerRole: { id: ROLE, managed: false } });
		await w.services.leagues.setChannelDefault(at(organizer, HERE), 'Night', true);
		const counts = async () => [await eventCount(w, cup), await eventCount(w, night)];
		const before = await counts();
		await expect(w.services.leagues.setChannelDefault(at(member, THERE), 'Cup', true)).rejects.toMatchObject({
			code: 'not-organizer',
		});
		await expect(w.services.leagues.setChannelDefault(at(roleOrganizer, HERE), 'Cup', true)).rejects.toMatchObject({
			code: 'not-organizer',
			message: 'This channel is the default of **Night**, and only its organizers can move it. Nothing was changed.',
		});
		await expect(w.services.leagues.setChannelDefault(organizer, 'Cup', true)).rejects.toMatchObject({
			code: 'no-channel',
			message: 'channel-default: needs a channel of the server: run the command in that channel.',
		});
		expect(await counts()).toEqual(before);
		// The role organizer may use a free channel.
		expect(await w.services.leagues.setChannelDefault(at(roleOrganizer, THERE), 'Cup', true)).toMatchObject({
			changed: true,
		});
	});
});
