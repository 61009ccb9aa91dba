/**
 * The rank roles' daily sync (docs/rank-roles.md): ratings move without a race too (Glicko's RD and endure's
 * uncertainty grow with idle days, so a player may turn provisional again; the leaderboard's idle filter drops a
 * player), so every league with rank roles on is synced once its own day has begun. It fires with the daily
 * standings (every 15 minutes, so each league's midnight is met in its time zone); a league synced today, with
 * nothing pending and no problem, is left alone. The sync itself runs in the background (role-sync-service.ts).
 */
import type { RoleSyncService } from '../services/roles/role-sync-service.js';
import type { Job } from './job.js';

export const RANK_ROLES_SCHEDULE = '6,21,36,51 * * * *';

export function createRankRolesJob(sync: Pick<RoleSyncService, 'syncDue'>): Job {
	return {
		name: 'rank-roles',
		schedule: RANK_ROLES_SCHEDULE,
		timezone: 'UTC',
		async run(ctx) {
			const leagues = await sync.syncDue();
			if (leagues > 0) ctx.log.info({ leagues }, 'rank roles: daily sync started');
		},
	};
}
