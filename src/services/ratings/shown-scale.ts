import { ratingScale, type RatingScale } from '../../formats/rating-scale.js';
import { getSystem } from '../../ratings/index.js';
import type { LeagueInfo } from '../../storage/ports.js';

/** The scale `system`'s ratings are shown on in `league` (its parameters decide endure's and speed's uncertainty). */
export function leagueScale(league: LeagueInfo, system: string): RatingScale {
	return ratingScale(system, getSystem(system).params(league.config.params[system]));
}
