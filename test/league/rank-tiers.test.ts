import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	rankRolesProblem,
	roleChanges,
	roleOps,
	tierRoleOf,
	wantedRoles,
	managedRoles,
	type LeaderboardRow,
	type RankRoleSettings,
} from '../../src/league/rank-tiers.js';

const GOLD = '100000000000000001';
const SILVER = '100000000000000002';
const BRONZE = '100000000000000003';
const ROOKIE = '100000000000000004';
const OTHER = '100000000000000009';

const byRating: RankRoleSettings = {
	enabled: true,
	// "Bronze below 1400, Silver to 1600, Gold above", listed in no particular order.
	tiers: [
		{ role: SILVER, minRating: 1400 },
		{ role: GOLD, minRating: 1600 },
		{ role: BRONZE, minRating: 0 },
	],
};
const byPlace: RankRoleSettings = {
	enabled: true,
	tiers: [
		{ role: SILVER, lastPlace: 10 },
		{ role: GOLD, lastPlace: 3 },
	],
};

const row = (over: Partial<LeaderboardRow>): LeaderboardRow => ({
	player: '#1',
	place: 1,
	shownRating: 1500,
	provisional: false,
	...over,
});

describe('tierRoleOf', () => {
	it('by rating: the highest tier whose minimum the rating, as shown to one decimal, reaches', () => {
		expect(tierRoleOf(byRating, row({ shownRating: 1700 }))).toBe(GOLD);
		expect(tierRoleOf(byRating, row({ shownRating: 1600 }))).toBe(GOLD);
		// 1599.96 is shown as 1600.0: the tier "from 1600" is the one people read.
		expect(tierRoleOf(byRating, row({ shownRating: 1599.96 }))).toBe(GOLD);
		expect(tierRoleOf(byRating, row({ shownRating: 1599.94 }))).toBe(SILVER);
		expect(tierRoleOf(byRating, row({ shownRating: 1400 }))).toBe(SILVER);
		expect(tierRoleOf(byRating, row({ shownRating: 1399.9 }))).toBe(BRONZE);
		expect(tierRoleOf(byRating, row({ shownRating: -3 }))).toBeUndefined();
	});

	it('by place: the smallest last place the leaderboard place is within', () => {
		expect(tierRoleOf(byPlace, row({ place: 1 }))).toBe(GOLD);
		expect(tierRoleOf(byPlace, row({ place: 3 }))).toBe(GOLD);
		expect(tierRoleOf(byPlace, row({ place: 4 }))).toBe(SILVER);
		expect(tierRoleOf(byPlace, row({ place: 10 }))).toBe(SILVER);
		expect(tierRoleOf(byPlace, row({ place: 11 }))).toBeUndefined();
	});

	it('a provisional player holds the provisional role instead of a tier, when there is one', () => {
		const rookie = { ...byPlace, provisionalRole: ROOKIE };
		expect(tierRoleOf(rookie, row({ place: 1, provisional: true }))).toBe(ROOKIE);
		expect(tierRoleOf(rookie, row({ place: 1, provisional: false }))).toBe(GOLD);
		expect(tierRoleOf(byPlace, row({ place: 1, provisional: true }))).toBe(GOLD);
	});
});

describe('wantedRoles', () => {
	it('gives each linked user their player’s role; linked players off the leaderboard want none', () => {
		const rows = [row({ player: '#1', place: 1 }), row({ player: '#2', place: 2 }), row({ player: '#3', place: 11 })];
		const users = new Map([
			['#2', 'u2'],
			['#3', 'u3'],
			['#4', 'u4'], // hidden by the leaderboard's filter: no row
		]);
		expect(wantedRoles(byPlace, rows, users)).toEqual(
			new Map([
				['u2', GOLD],
				['u3', undefined],
				['u4', undefined],
			]),
		);
	});
});

describe('roleChanges', () => {
	const managed = managedRoles(byPlace);

	it('adds the wanted role, removes other managed roles, never touches any other role', () => {
		const wanted = new Map<string, string | undefined>([
			['right', GOLD],
			['wrong', SILVER],
			['none', undefined],
			['left', GOLD], // not a member any more
		]);
		const members = new Map<string, readonly string[]>([
			['right', [GOLD, OTHER]],
			['wrong', [GOLD, OTHER]],
			['none', [SILVER]],
			['stranger', [GOLD, OTHER]], // a member who is no linked player
			['bystander', [OTHER]],
		]);
		expect(roleChanges(wanted, members, managed)).toEqual([
			{ user: 'none', remove: [SILVER] },
			{ user: 'wrong', add: SILVER, remove: [GOLD] },
			{ user: 'stranger', remove: [GOLD] },
		]);
	});

	it('the requests: each member’s removals before its addition', () => {
		expect(roleOps([{ user: 'u', add: SILVER, remove: [GOLD] }])).toEqual([
			{ user: 'u', role: GOLD, op: 'remove' },
			{ user: 'u', role: SILVER, op: 'add' },
		]);
	});

	it('applying the changes leaves every member with exactly their wanted managed role and their other roles', () => {
		const roleIds = [GOLD, SILVER, ROOKIE, OTHER, BRONZE];
		const users = ['a', 'b', 'c', 'd', 'e'];
		fc.assert(
			fc.property(
				fc.dictionary(fc.constantFrom(...users), fc.subarray(roleIds)),
				fc.dictionary(fc.constantFrom(...users), fc.option(fc.constantFrom(GOLD, SILVER), { nil: undefined })),
				(held, want) => {
					const members = new Map(Object.entries(held));
					const wanted = new Map(Object.entries(want));
					const after = new Map([...members].map(([u, r]) => [u, new Set(r)]));
					const changes = roleChanges(wanted, members, managed);
					for (const op of roleOps(changes)) {
						const roles = after.get(op.user)!;
						expect(managed.has(op.role)).toBe(true);
						if (op.op === 'add') roles.add(op.role);
						else roles.delete(op.role);
					}
					for (const [user, roles] of after) {
						const before = members.get(user)!;
						const target = wanted.get(user);
						expect([...roles].filter((r) => managed.has(r))).toEqual(target === undefined ? [] : [target]);
						expect([...roles].filter((r) => !managed.has(r)).sort()).toEqual(
							before.filter((r) => !managed.has(r)).sort(),
						);
						// A member already right is not in the changes at all.
						const right = before.filter((r) => managed.has(r)).join() === (target ?? '');
						expect(changes.some((c) => c.user === user)).toBe(!right);
					}
				},
			),
		);
	});
});

describe('rankRolesProblem', () => {
	it('accepts the settings above and refuses each malformed one with its reason', () => {
		expect(rankRolesProblem(byRating)).toBeUndefined();
		expect(rankRolesProblem({ ...byPlace, provisionalRole: ROOKIE })).toBeUndefined();
		expect(rankRolesProblem({ enabled: false, tiers: [] })).toBeUndefined();
		expect(rankRolesProblem({ enabled: true, tiers: [] })).toBe(
			'rank roles need a tier or a provisional role to be on',
		);
		expect(
			rankRolesProblem({
				enabled: true,
				tiers: [
					{ role: GOLD, minRating: 1600 },
					{ role: SILVER, lastPlace: 3 },
				],
			}),
		).toBe('the tiers are all by rating or all by place');
		expect(
			rankRolesProblem({
				enabled: true,
				tiers: [
					{ role: GOLD, minRating: 1600 },
					{ role: GOLD, minRating: 1400 },
				],
			}),
		).toBe(`the role <@&${GOLD}> is in two tiers`);
		expect(
			rankRolesProblem({
				enabled: true,
				tiers: [
					{ role: GOLD, lastPlace: 3 },
					{ role: SILVER, lastPlace: 3 },
				],
			}),
		).toBe('two tiers have the same bound');
		expect(rankRolesProblem({ enabled: true, tiers: [{ role: GOLD, lastPlace: 0 }] })).toBe(
			'a tier’s last place must be a whole number of at least 1',
		);
		expect(rankRolesProblem({ enabled: true, tiers: [{ role: 'gold', minRating: 1 }] })).toBe(
			'every tier needs a role',
		);
		expect(rankRolesProblem({ ...byPlace, provisionalRole: GOLD })).toBe(
			`the role <@&${GOLD}> is both a tier and the provisional role`,
		);
	});
});
