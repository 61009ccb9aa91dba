/**
 * The registry (STYLE.md 2): every slash command, listed explicitly. Adding a command is one import and one entry;
 * test/discord/command-registry.test.ts checks names are unique and every entry has the right shape.
 */
import type { ButtonHandler, Command } from '../src/discord/command.js';
import about from './about.js';
import forecast from './forecast.js';
import leaderboard from './leaderboard.js';
import league from './league.js';
import { calibrateButtons } from './league/calibrate-buttons.js';
import { inboxButtons } from './league/inbox.js';
import { rolesButtons } from './league/roles.js';
import { leagueDeleteButtons } from './league/delete.js';
import odds from './odds.js';
import player from './player.js';
import { playerMergeButtons } from './player/merge.js';
import race from './race.js';
import { raceButtons, raceClassButtons, raceEditButtons, raceSuggestButtons } from './race/buttons.js';
import rating from './rating.js';
import standings from './standings.js';
import season from './season.js';
import { racePenaltyButtons } from './race/penalty.js';

export const commands: readonly Command[] = [
	about,
	league,
	race,
	rating,
	odds,
	forecast,
	leaderboard,
	standings,
	season,
	player,
];

/** Button handlers, routed by customId prefix. */
export const buttons: readonly ButtonHandler[] = [
	raceButtons,
	raceEditButtons,
	raceClassButtons,
	raceSuggestButtons,
	racePenaltyButtons,
	calibrateButtons,
	playerMergeButtons,
	inboxButtons,
	leagueDeleteButtons,
	rolesButtons,
];
