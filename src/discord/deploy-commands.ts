/**
 * `npm run deploy-commands`: registers the slash commands' definitions with Discord (STYLE.md 5). It reads only
 * the `data` of each registry entry. With DEV_GUILD_ID the commands go to that guild (instant, for development);
 * without it they are global (production; Discord may take a while to show changes).
 * A PUT replaces the whole set, so a command removed from the registry disappears from Discord too.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REST, Routes, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { createLogger } from '../logger.js';

export interface DeployResult {
	readonly scope: 'guild' | 'global';
	readonly names: readonly string[];
}

export async function deployCommands(
	config: Pick<Config, 'DISCORD_TOKEN' | 'DISCORD_APP_ID' | 'DEV_GUILD_ID' | 'DISCORD_API_URL'>,
	body: readonly RESTPostAPIChatInputApplicationCommandsJSONBody[],
): Promise<DeployResult> {
	const rest = new REST({ api: config.DISCORD_API_URL }).setToken(config.DISCORD_TOKEN);
	const route = config.DEV_GUILD_ID
		? Routes.applicationGuildCommands(config.DISCORD_APP_ID, config.DEV_GUILD_ID)
		: Routes.applicationCommands(config.DISCORD_APP_ID);
	const registered = (await rest.put(route, { body })) as readonly { name: string }[];
	return { scope: config.DEV_GUILD_ID ? 'guild' : 'global', names: registered.map((command) => command.name) };
}

async function run(): Promise<number> {
	let config: Config;
	try {
		config = loadConfig();
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		process.stderr.write(`pitwall deploy-commands: ${error.message}\n`);
		return 2;
	}
	const log = createLogger({ level: config.LOG_LEVEL, pretty: process.stdout.isTTY });
	// Imported here, not at the top: tests import deployCommands without loading the registry twice.
	const { commands } = await import('../../commands/index.js');
	const result = await deployCommands(
		config,
		commands.map((command) => command.data),
	);
	log.info({ ...result, guildId: config.DEV_GUILD_ID }, `registered ${result.names.length} commands`);
	return 0;
}

const invokedDirectly =
	process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) process.exitCode = await run();
