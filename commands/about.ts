/** `/about`: the bot's version and the rating systems it knows (id and race model). Ephemeral, instant. */
import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import pkg from '../package.json' with { type: 'json' };
import type { Command } from '../src/discord/command.js';
import { answer } from '../src/discord/reply.js';
import { raceSystems } from '../src/ratings/index.js';

const data = {
	name: 'about',
	description: 'Show the bot version and the rating systems it supports',
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export function aboutText(): string {
	const systems = raceSystems.map((system) => `- \`${system.id}\`: ${system.raceModel}`);
	return [`**pitwall ${pkg.version}**`, 'Rating systems:', ...systems].join('\n').slice(0, 2000);
}

export default {
	data,
	defer: 'none',
	async execute(interaction) {
		await answer(interaction, { content: aboutText() }, { ephemeral: true });
	},
} satisfies Command;
