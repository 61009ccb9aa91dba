/**
 * `npm start`. With DISCORD_TOKEN the bot connects to Discord (arrives with the bot issue); without it, the local
 * demo runs: a replay of the sample league in data/ under every rating system (`pitwall demo`).
 */
import { main } from './cli/main.js';

const token = process.env['DISCORD_TOKEN']?.trim();
if (token) {
	console.error(
		'pitwall: DISCORD_TOKEN is set, but this release has no Discord bot yet (the slash commands arrive in the next one).\n' +
			'Running the local demo instead.\n',
	);
} else {
	console.error(
		'pitwall: no DISCORD_TOKEN set, so running the local demo.\n' +
			'To run the bot, set DISCORD_TOKEN and DISCORD_APP_ID (see .env.example).\n',
	);
}
process.exitCode = await main(['demo', ...process.argv.slice(2)]);
