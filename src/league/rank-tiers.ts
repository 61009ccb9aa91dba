/**
 * Rank roles (docs/rank-roles.md): a league can keep one Discord role per tier in step with its leaderboard. This file
 * is the pure part: the settings and their checks, the one tier role each linked player should hold, and the changes
 * that bring the members' current roles there. Only the league's own tier roles (the managed roles) are ever added or
 * removed; a member who holds the right role is not touched. No Discord, no clock: the standings, their day and the
 * members' roles are passed in.
 */

/** A tier by rating: everyone whose rating, as the leaderboard shows it, is at least `minRating`. */
export interface RatingTier {
	readonly role: string;
	readonly minRating: number;
}

/** A tier by place: everyone ranked `lastPlace` or better on the leaderboard (top 3: `lastPlace` 3). */
export interface PlaceTier {
	readonly role: string;
	readonly lastPlace: number;
}

export type RankTier = RatingTier | PlaceTier;

/** The rank roles of a league (LeagueConfig.roles). Tiers are all by rating or all by place. */
export interface RankRoleSettings {
	/** The bot keeps the roles in step (false: the settings are kept, nothing is synced). */
	readonly enabled: boolean;
	readonly tiers: readonly RankTier[];
	/** The role of provisional players: they hold it instead of a tier (absent: they are tiered as everyone). */
	readonly provisionalRole?: string | undefined;
	/** The preview whose Confirm turned the roles on (a Confirm pressed again stores nothing twice). */
	readonly preview?: string | undefined;
}

/** At most this many tiers: a tier is a line of the preview and of /league info. */
export const MAX_TIERS = 20;

const SNOWFLAKE = /^\d{15,21}$/;

export const isPlaceTier = (tier: RankTier): tier is PlaceTier => 'lastPlace' in tier;

/** What is wrong with stored settings (undefined: nothing); the log refuses such an event (race-log-checks.ts). */
export function rankRolesProblem(settings: RankRoleSettings): string | undefined {
	if (typeof settings !== 'object' || settings === null) return 'the rank roles must be settings';
	if (typeof settings.enabled !== 'boolean') return 'the rank roles must be on or off';
	const list: unknown = settings.tiers;
	if (!Array.isArray(list)) return 'the rank roles need a list of tiers';
	if (settings.tiers.length > MAX_TIERS) return `at most ${MAX_TIERS} rank role tiers`;
	const roles = new Set<string>();
	for (const tier of settings.tiers) {
		if (typeof tier?.role !== 'string' || !SNOWFLAKE.test(tier.role)) return 'every tier needs a role';
		if (roles.has(tier.role)) return `the role <@&${tier.role}> is in two tiers`;
		roles.add(tier.role);
		const rating = 'minRating' in tier;
		if (rating === isPlaceTier(tier)) return 'a tier has a minimum rating or a last place, not both';
		if (rating && !Number.isFinite(tier.minRating)) return 'a tier’s minimum rating must be a number';
		if (isPlaceTier(tier) && !(Number.isInteger(tier.lastPlace) && tier.lastPlace >= 1)) {
			return 'a tier’s last place must be a whole number of at least 1';
		}
	}
	const byPlace = settings.tiers.filter(isPlaceTier).length;
	if (byPlace !== 0 && byPlace !== settings.tiers.length) return 'the tiers are all by rating or all by place';
	const bounds = settings.tiers.map((t) => (isPlaceTier(t) ? t.lastPlace : t.minRating));
	if (new Set(bounds).size !== bounds.length) return 'two tiers have the same bound';
	const provisional = settings.provisionalRole;
	if (provisional !== undefined) {
		if (typeof provisional !== 'string' || !SNOWFLAKE.test(provisional)) return 'the provisional role must be a role';
		if (roles.has(provisional)) return `the role <@&${provisional}> is both a tier and the provisional role`;
	}
	if (settings.enabled && settings.tiers.length === 0 && provisional === undefined) {
		return 'rank roles need a tier or a provisional role to be on';
	}
	return undefined;
}

/** Every role the league manages: the tiers' and the provisional role. */
export function managedRoles(settings: RankRoleSettings): ReadonlySet<string> {
	return new Set([
		...settings.tiers.map((t) => t.role),
		...(settings.provisionalRole !== undefined ? [settings.provisionalRole] : []),
	]);
}

/** The tiers from the best down: highest minimum rating first, or smallest last place first. */
export function orderedTiers(settings: RankRoleSettings): readonly RankTier[] {
	return [...settings.tiers].sort((a, b) =>
		isPlaceTier(a) && isPlaceTier(b)
			? a.lastPlace - b.lastPlace
			: (b as RatingTier).minRating - (a as RatingTier).minRating,
	);
}

/**
 * A rating as the bot shows it (one decimal, commands/shared.ts fmtRating): a tier's bound is compared with the number
 * people read, so 1599.96 shown as 1600.0 is in the tier "from 1600".
 */
export const shownRounded = (shown: number): number => Number(shown.toFixed(1));

/** One player of the leaderboard, as /leaderboard shows them. */
export interface LeaderboardRow {
	readonly player: string;
	/** The 1-based place /leaderboard gives them (the league's filter applied). */
	readonly place: number;
	/** The rating on the shown scale (rating-scale.ts), unrounded. */
	readonly shownRating: number;
	readonly provisional: boolean;
}

/** The tier role of one leaderboard row (undefined: none, e.g. below every tier). */
export function tierRoleOf(settings: RankRoleSettings, row: LeaderboardRow): string | undefined {
	if (row.provisional && settings.provisionalRole !== undefined) return settings.provisionalRole;
	const rating = shownRounded(row.shownRating);
	for (const tier of orderedTiers(settings)) {
		if (isPlaceTier(tier) ? row.place <= tier.lastPlace : rating >= tier.minRating) return tier.role;
	}
	return undefined;
}

/**
 * The one role each linked Discord user should hold: every user linked to a player of the league is a key (undefined:
 * no rank role: not on the leaderboard, below every tier). `rows` is the leaderboard in its order; `users` maps a
 * player id to its linked user.
 */
export function wantedRoles(
	settings: RankRoleSettings,
	rows: readonly LeaderboardRow[],
	users: ReadonlyMap<string, string>,
): Map<string, string | undefined> {
	const wanted = new Map<string, string | undefined>();
	for (const user of users.values()) wanted.set(user, undefined);
	for (const row of rows) {
		const user = users.get(row.player);
		if (user !== undefined) wanted.set(user, tierRoleOf(settings, row));
	}
	return wanted;
}

/** What changes for one member: at most one managed role added, any managed roles they should not hold removed. */
export interface RoleChange {
	readonly user: string;
	readonly add?: string | undefined;
	readonly remove: readonly string[];
}

/**
 * The changes from the members' current roles to the wanted ones, by user id. Only `managed` roles are added or
 * removed: a member's other roles are never looked at. Every member holding a managed role they should not (a player
 * unlinked since, a member who is no player) loses it; a member who holds exactly their wanted role is not listed. A
 * linked user who is not a member (left the server) is not listed either: there is no one to give a role to.
 */
export function roleChanges(
	wanted: ReadonlyMap<string, string | undefined>,
	members: ReadonlyMap<string, readonly string[]>,
	managed: ReadonlySet<string>,
): RoleChange[] {
	const changes: RoleChange[] = [];
	for (const [user, roles] of members) {
		const want = wanted.get(user);
		const held = roles.filter((role) => managed.has(role));
		const add = want !== undefined && !held.includes(want) ? want : undefined;
		const remove = held.filter((role) => role !== want);
		if (add !== undefined || remove.length > 0) changes.push({ user, ...(add !== undefined && { add }), remove });
	}
	return changes.sort((a, b) => a.user.length - b.user.length || (a.user < b.user ? -1 : a.user > b.user ? 1 : 0));
}

/** One Discord request of a change: add or remove one role of one member (the sync's queue holds these). */
export interface RoleOp {
	readonly user: string;
	readonly role: string;
	readonly op: 'add' | 'remove';
}

/** The requests of `changes`, each member's removals before the addition (a member never holds two tiers at once). */
export function roleOps(changes: readonly RoleChange[]): RoleOp[] {
	return changes.flatMap((c) => [
		...c.remove.map((role): RoleOp => ({ user: c.user, role, op: 'remove' })),
		...(c.add !== undefined ? [{ user: c.user, role: c.add, op: 'add' } satisfies RoleOp] : []),
	]);
}
