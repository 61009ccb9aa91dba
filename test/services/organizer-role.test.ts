import { beforeEach, describe, expect, it } from 'vitest';
import { GUILD, organizer, ROLE, roleOrganizer, world, type World } from './helpers.js';

/**
 * The organizer role can never be a role every member has (@everyone, whose id is the server's
 * id) nor a role Discord or an integration hands out (managed: a bot's role, Server Booster, linked roles), and only
 * members with Manage Server may change it.
 */

const OTHER = { id: '700000000000000002', managed: false };

let w: World;
let league: string;

beforeEach(async () => {
	w = world();
	league = (
		await w.services.leagues.create(organizer, { name: 'Sunday Cup', organizerRole: { id: ROLE, managed: false } })
	).id;
});

const organizerRole = async () => (await w.repo.getLeague(league))!.config.organizerRole;

describe('the organizer role', () => {
	it('@everyone is refused, at create and at config, with a message saying why', async () => {
		const everyone = { id: GUILD, managed: false };
		await expect(w.services.leagues.configure(organizer, undefined, { organizerRole: everyone })).rejects.toMatchObject(
			{
				code: 'everyone-role',
				message: expect.stringMatching(/@everyone is every member of the server/) as unknown,
			},
		);
		await expect(
			w.services.leagues.create(organizer, { name: 'Open Cup', organizerRole: everyone }),
		).rejects.toMatchObject({ code: 'everyone-role' });
		expect(await organizerRole()).toBe(ROLE);
		expect(await w.services.leagues.list(GUILD)).toHaveLength(1);
	});

	it('a managed role (a bot’s, Server Booster, an integration’s) is refused', async () => {
		await expect(
			w.services.leagues.configure(organizer, undefined, {
				organizerRole: { id: '700000000000000009', managed: true },
			}),
		).rejects.toMatchObject({
			code: 'managed-role',
			message: expect.stringMatching(/managed by Discord or an integration/) as unknown,
		});
		expect(await organizerRole()).toBe(ROLE);
	});

	it('an organizer by role may change other settings but not the organizer role; Manage Server may', async () => {
		await expect(
			w.services.leagues.configure(roleOrganizer, undefined, { organizerRole: OTHER }),
		).rejects.toMatchObject({
			code: 'organizer-role-admin',
			message: expect.stringMatching(/Manage Server/) as unknown,
		});
		expect(await organizerRole()).toBe(ROLE);
		// Naming the role it already is changes nothing, so it is not refused; other settings are theirs to change.
		const same = await w.services.leagues.configure(roleOrganizer, undefined, {
			organizerRole: { id: ROLE, managed: false },
			timezone: 'Europe/Budapest',
		});
		expect(same.config).toMatchObject({ organizerRole: ROLE, timezone: 'Europe/Budapest' });
		expect(
			(await w.services.leagues.configure(organizer, undefined, { organizerRole: OTHER })).config.organizerRole,
		).toBe(OTHER.id);
	});
});
