import type { ParamOverrides } from '../ratings/types.js';

/**
 * The rating parameters a league starts with when it is created ("defaults chosen for leagues, not for
 * chess"). They are written into the new league's configuration as explicit overrides, so `/league config` shows
 * them and `pitwall replay --system X --param name=value` reproduces the league's ratings. Leagues created before
 * keep their stored configuration, and each system's own params() defaults (the reference, which the oracle tests
 * and the CLI use) are unchanged.
 *
 * Chosen by scripts/league-defaults.ts (README "Defaults for new leagues"): every system calibrated on ZakStunts
 * (293 races), Race for Kicks (21) and F1 1970–2021 (873), ratings carried, retirements ordered; then round
 * candidate sets scored on all three; the set with the best total of per-race winner log-likelihood gains over the
 * reference defaults, among those losing at most 0.01 nats per race on any history. Per race, ZakStunts / R4K / F1:
 * - folyami k 18 → 20: +0.015 / +0.029 / −0.001 (F1's own optimum is 17.9; ZakStunts wants 40, R4K 116);
 * - glicko c 12.8 → 2 per day (RD from 50 back to 350 in ~80 years instead of 2): 0 (undated) / +0.029 / +0.476,
 *   the F1 newcomers' largest first-3-races swing 3340 → 627 points. initialRd stays 350: lowering it costs the
 *   small communities (200: −0.010 / −0.070 / +0.504);
 * - endure φ 1 → 0.999653 (forgetting, half-life ≈ 2000 idle days): 0 (undated) / −0.008 / +0.017;
 * - speed and stk: no candidate beat the reference on all three, so they keep it (no override).
 */
export const LEAGUE_DEFAULTS: Readonly<Record<string, ParamOverrides>> = Object.freeze({
	folyami: Object.freeze({ k: 20 }),
	glicko: Object.freeze({ c: 2 }),
	endure: Object.freeze({ phi: 0.999653 }),
});
